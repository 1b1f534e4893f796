// Commands a tool stores to run on its own later (a git alias or pager, an npm
// lifecycle script, a hook manager's entry): the value is judged as the command
// it is where it is stored; what is left to ask about is a value loom cannot
// read ahead. This says which values loom can read ahead.

/** Programs an alias's shell code may chain and stay readable: git and text tools. */
export const CHAINABLE_TOOLS = ['git', 'grep', 'egrep', 'fgrep', 'sed', 'awk', 'sort', 'uniq', 'head', 'tail', 'cut', 'tr', 'wc', 'echo', 'printf', 'cat', 'less', 'column', 'fzf', 'gh', 'true', ':'];

const SHELLS_AND_INTERPRETERS = /\b(?:sh|bash|zsh|dash|ksh|fish|python[\d.]*|node|perl|ruby|php|pwsh|powershell|cmd)\b/i;

/**
 * A stored command that is what it looks like: a program by its bare name with plain arguments (`bun`, `husky`,
 * `cache --timeout=3600`), or (`!` first, git's alias form) shell code whose every stage is git or a text tool.
 * Not: a script by its path, a shell or an interpreter, quoting, substitutions or redirections.
 */
export function plainStoredCommand(value: string): boolean {
  const v = value.trim();
  if (v.startsWith('!')) {
    if (/[`$<>()]/.test(v)) return false;
    return v.slice(1).split(/\|\||&&|[|;]/).every((stage) => {
      const words = stage.trim().split(/\s+/);
      const prog = words[0] === 'xargs' ? words.find((w, i) => i > 0 && !w.startsWith('-')) : words[0];
      return prog !== undefined && CHAINABLE_TOOLS.includes(prog);
    });
  }
  if (/[;&|`$<>()'"\\]/.test(v) || SHELLS_AND_INTERPRETERS.test(v)) return false;
  const first = v.split(/\s+/)[0] ?? '';
  return first !== '' && !first.includes('/');
}

/**
 * A shell by its name or where the system installs it (`zsh`, `/bin/bash`, `C:\Program Files\Git\bin\bash.exe`):
 * what a script-shell setting names as a preference. A file named `sh` in the project is a script, not a shell.
 */
export function isShellProgram(value: string): boolean {
  const v = value.trim().replace(/^["']|["']$/g, '');
  const parts = v.split(/[\\/]/);
  const base = parts.pop() ?? '';
  if (!/^(?:ba|da|z|k|mk|a)?sh(?:\.exe)?$|^(?:pwsh|powershell|cmd)(?:\.exe)?$/i.test(base)) return false;
  const dir = parts.join('/');
  return parts.length === 0 || /^(?:\/usr(?:\/local)?|\/opt\/homebrew)?\/s?bin$/.test(dir) || /^[A-Za-z]:\/(?:Program Files(?: \(x86\))?|Windows)\//i.test(dir + '/');
}
