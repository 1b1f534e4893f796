// Shell variables whose value bash (or sh) runs: a prompt string is expanded
// (its `$(...)` and backticks run) each time it is shown, PS4 at each traced
// command (`set -x`, `bash -x`), PROMPT_COMMAND is run as a command before
// each prompt of an interactive shell, and BASH_ENV / ENV name a file a new
// shell runs first (analyze.ts reads those two where a shell starts). The
// analyzer judges a known value where it is set, as what it will run (no
// everyday value of these runs a delete); exported functions
// (`BASH_FUNC_name%%=() { ...; }`) are judged as their body run.

export type EnvCodeRuns =
  /** Expanded as a prompt (as inside double quotes): its substitutions run. */
  | 'prompt'
  /** Run as a shell command (an array: each element is one). */
  | 'script';

export const ENV_CODE: Record<string, { runs: EnvCodeRuns; when: string }> = {
  PS0: { runs: 'prompt', when: 'after an interactive shell reads a command' },
  PS1: { runs: 'prompt', when: 'at each prompt of an interactive shell' },
  PS2: { runs: 'prompt', when: 'at each continuation prompt' },
  PS4: { runs: 'prompt', when: 'before each command traced by set -x' },
  PROMPT_COMMAND: { runs: 'script', when: 'before each prompt of an interactive shell' },
};

/** `BASH_FUNC_ls%%` (bash 4.4+) and `BASH_FUNC_ls()` (older): the environment form of an exported function. */
export function exportedFunctionName(name: string): string | undefined {
  if (!name.startsWith('BASH_FUNC_')) return undefined;
  const rest = name.slice('BASH_FUNC_'.length);
  const fn = rest.endsWith('%%') ? rest.slice(0, -2) : rest.endsWith('()') ? rest.slice(0, -2) : undefined;
  return fn !== undefined && fn !== '' ? fn : undefined;
}

/** The NAME=VALUE of an environment word (`env NAME=VALUE`): exported function names may hold `%` and `()`. */
export function envAssignment(word: string): { name: string; value: string } | undefined {
  const eq = word.indexOf('=');
  if (eq <= 0) return undefined;
  const name = word.slice(0, eq);
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && exportedFunctionName(name) === undefined) return undefined;
  return { name, value: word.slice(eq + 1) };
}

/**
 * Environment variables that make a program load code from a file before its own work: the file is run, in the
 * language named, by every program the line starts that reads the variable (`NODE_OPTIONS='--require /tmp/x.js' npm
 * test`, `PYTHONPATH=/tmp` with a sitecustomize.py written there, `ZDOTDIR=/tmp/z zsh`). `options`: the value is
 * options, and these name the file; `inFolder`: the value is folders (`:`-separated), and these files in them run;
 * `code`: the value is options that carry code (PERL5OPT's `-M<module>;code`). `programs`: only these read it.
 */
export const ENV_LOADERS_OF_CODE: Record<string, { lang: string; options?: string[]; inFolder?: string[]; code?: string[]; programs?: RegExp }> = {
  NODE_OPTIONS: { lang: 'node', options: ['--require', '-r', '--import', '--loader', '--experimental-loader'] },
  RUBYOPT: { lang: 'ruby', options: ['-r'] },
  PYTHONSTARTUP: { lang: 'python3', programs: /^(?:python[\d.]*|ipython3?)$/ },
  PYTHONPATH: { lang: 'python3', inFolder: ['sitecustomize.py', 'usercustomize.py'] },
  ZDOTDIR: { lang: 'sh', inFolder: ['.zshenv', '.zshrc', '.zprofile', '.zlogin'], programs: /^zsh$/ },
  PERL5OPT: { lang: 'perl', code: ['-M', '-m'] },
};
