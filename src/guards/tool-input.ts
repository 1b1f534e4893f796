// What an unknown tool's input asks for, read from the keys it uses (data:
// the tables below), not from its name: harnesses and MCP servers invent tool
// names and argument shapes (`{"cmd": ["sh","-c","…"]}`, `{"program": "rm",
// "args": [...]}`, `{"steps": [{"run": "…"}]}`, `{"arguments": "<JSON>"}`,
// `{"filename": …, "text": …}`, `{"language": "python", "code": "…"}`).
// Bounded: MAX_DEPTH levels, MAX_NODES values, MAX_TEXTS texts.
import { PATH_KEYS as TOOL_PATH_KEYS } from '../contract/tools';
import { shq } from './shell/launchers';

/** Keys whose string (or list of strings: one command each, or an argv) is a shell command. */
const SHELL_KEYS = new Set(['command', 'cmd', 'script', 'shell_command', 'shellCommand', 'commandLine', 'command_line', 'cmdline', 'bash', 'sh', 'run', 'commands', 'shell', 'exec', 'line', 'input']);
/** Keys that name the program when another key holds its arguments (`{"program": "rm", "args": [...]}`). */
const PROGRAM_KEYS = ['program', 'executable', 'binary', 'command', 'cmd', 'file'];
const ARGS_KEYS = ['args', 'arguments', 'argv', 'params', 'parameters'];
/** Keys whose list of strings is an argv on its own. */
const ARGV_KEYS = new Set(['argv', 'args', 'command', 'cmd']);
/** Keys of code in a language the guard reads, and the command that runs such code. */
const CODE_KEYS = new Set(['code', 'source', 'script', 'program_text', 'snippet']);
const LANGUAGES: Record<string, string> = { python: 'python3 -c', python3: 'python3 -c', py: 'python3 -c', node: 'node -e', javascript: 'node -e', js: 'node -e', typescript: 'node -e', ts: 'node -e', ruby: 'ruby -e', rb: 'ruby -e', perl: 'perl -e', php: 'php -r', lua: 'lua -e', powershell: 'pwsh -c', pwsh: 'pwsh -c', ps1: 'pwsh -c', bash: 'bash -c', sh: 'sh -c', shell: 'sh -c', zsh: 'zsh -c' };
/** Tool names that say which language their code is in, when no `language` key does. */
const NAMED_LANGUAGES: [RegExp, string][] = [[/python|code_interpreter|jupyter|ipython/i, 'python'], [/node|javascript|\bjs\b|deno|bun/i, 'node'], [/powershell|pwsh/i, 'powershell'], [/ruby/i, 'ruby']];
/** Keys that name the file a tool writes, and keys that carry what it writes or how it edits. */
// The write tools' own keys (contract/tools.ts), and what unknown tools call the file besides.
const PATH_KEYS = [...TOOL_PATH_KEYS, 'file', 'dest', 'destination', 'target', 'output_path', 'outputPath'];
const CONTENT_KEYS = ['content', 'contents', 'file_text', 'text', 'new_string', 'new_str', 'newText', 'new_source', 'code', 'code_edit', 'data', 'body', 'edits', 'diff', 'replacement', 'lines'];
const PATCH_START = /^\s*\*\*\* Begin Patch|^\s*(?:diff --git |--- (?:a\/|\/dev\/null)|<<<<<<< SEARCH)/;

const MAX_DEPTH = 4;
const MAX_NODES = 256;
const MAX_TEXTS = 16;
const MAX_JSON = 64 * 1024;

export interface ToolAsks {
  /** Shell command lines. */
  shell: string[];
  /** Files written or edited. */
  writes: string[];
  /** Patch texts. */
  patches: string[];
}

const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.length > 0 && v.length <= 256 && v.every((x) => typeof x === 'string');
const own = (o: Record<string, unknown>, k: string): unknown => (Object.hasOwn(o, k) ? o[k] : undefined);

/** A string list as a command: one argv (`["rm","-rf","x"]`, `["bash","-lc","…"]`), or one command per element under a plural key. */
function listAsCommands(key: string, list: string[]): string[] {
  if (key === 'commands' || key === 'run' || key === 'script' || key === 'lines') return list;
  return [list.map(shq).join(' ')];
}

/** What `input` (a tool named `name`) asks to run or write. */
export function toolAsks(name: unknown, input: Record<string, unknown> | undefined): ToolAsks {
  const out: ToolAsks = { shell: [], writes: [], patches: [] };
  if (!input) return out;
  let nodes = 0;
  const named = typeof name === 'string' ? NAMED_LANGUAGES.find(([re]) => re.test(name))?.[1] : undefined;
  const add = (list: string[], v: string) => {
    if (list.length < MAX_TEXTS && v.trim()) list.push(v);
  };
  const visit = (o: Record<string, unknown>, depth: number): void => {
    if (depth > MAX_DEPTH || ++nodes > MAX_NODES) return;
    const language = typeof o.language === 'string' ? o.language.toLowerCase() : typeof o.lang === 'string' ? o.lang.toLowerCase() : named;
    // A program and its arguments apart.
    for (const pk of PROGRAM_KEYS) {
      const prog = own(o, pk);
      if (typeof prog !== 'string' || !prog.trim()) continue;
      const ak = ARGS_KEYS.find((k) => isStringList(own(o, k)));
      if (ak) add(out.shell, [prog, ...(own(o, ak) as string[])].map(shq).join(' '));
    }
    for (const [k, v] of Object.entries(o)) {
      if (++nodes > MAX_NODES) return;
      if (typeof v === 'string') {
        if (PATCH_START.test(v)) add(out.patches, v);
        else if (CODE_KEYS.has(k) && language && Object.hasOwn(LANGUAGES, language) && !['bash', 'sh', 'shell', 'zsh'].includes(language)) add(out.shell, `${LANGUAGES[language]} ${shq(v)}`);
        else if (SHELL_KEYS.has(k) || (CODE_KEYS.has(k) && (language === undefined || ['bash', 'sh', 'shell', 'zsh'].includes(language)) && !PATH_KEYS.some((p) => typeof own(o, p) === 'string'))) {
          if (!(PROGRAM_KEYS.includes(k) && ARGS_KEYS.some((a) => isStringList(own(o, a))))) add(out.shell, v);
        }
        // Arguments as a JSON text (an MCP call relayed as a string).
        else if ((k === 'arguments' || k === 'args' || k === 'params' || k === 'input') && v.length <= MAX_JSON && /^\s*[{[]/.test(v)) {
          try {
            const parsed = JSON.parse(v) as unknown;
            if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) visit(parsed as Record<string, unknown>, depth + 1);
          } catch {
            // not JSON: nothing to read
          }
        }
      } else if (isStringList(v)) {
        if (ARGV_KEYS.has(k) && !PROGRAM_KEYS.some((p) => p !== k && typeof own(o, p) === 'string')) for (const c of listAsCommands(k, v)) add(out.shell, c);
        else if (SHELL_KEYS.has(k)) for (const c of listAsCommands(k, v)) add(out.shell, c);
      } else if (Array.isArray(v)) {
        for (const x of v.slice(0, 64)) if (x && typeof x === 'object' && !Array.isArray(x)) visit(x as Record<string, unknown>, depth + 1);
      } else if (v && typeof v === 'object') visit(v as Record<string, unknown>, depth + 1);
    }
    // A file and what goes into it.
    const path = PATH_KEYS.map((k) => own(o, k)).find((x): x is string => typeof x === 'string' && x.length > 0);
    if (path !== undefined && CONTENT_KEYS.some((k) => own(o, k) !== undefined)) add(out.writes, path);
  };
  visit(input, 0);
  return out;
}
