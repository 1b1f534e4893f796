// What a command writes to its standard output, as far as it is known
// before anything runs: the text of `echo`/`printf` with static arguments,
// a heredoc passed through `cat`, a static text decoded by `base64 -d` or
// `xxd -r -p` or reversed by `rev`; otherwise "only known at run time" or
// "a download". The analyzer uses it for what is fed to a shell or an
// interpreter as code (a pipe, a here-string, `<(...)`, a file written and
// then run in the same line).
import { posix } from 'node:path';
import { decodeAnsiC, type Word } from './lexer';
import { isShellCodeGenerator } from './tables/generators';
import { work } from './work';

export type Feed =
  | { kind: 'static'; text: string }
  /** `text`: the output with each run-time part as \u0000, when only parts of it are unknown. */
  | { kind: 'runtime'; why: string; text?: string }
  | { kind: 'download'; by: string }
  /** A file's content on disk (a script file: judged as running a file, not as text). */
  | { kind: 'file'; path: string }
  /** What an ordinary program prints; trusted like a script file only from a known generator of shell code (`kubectl completion bash`, `pyenv init -`: tables/generators.ts). */
  | { kind: 'program'; name: string; argv?: string[] }
  | { kind: 'none' };

export const NONE: Feed = { kind: 'none' };
export const MAX_FEED = 64 * 1024;

export const DOWNLOADERS = new Set(['curl', 'wget', 'fetch', 'http', 'https', 'aria2c', 'xh', 'lwp-request', 'lynx', 'links', 'w3m', 'httpie', 'curlie', 'Invoke-WebRequest', 'iwr', 'Invoke-RestMethod', 'irm', 'nc', 'ncat', 'socat', 'ftp', 'tftp', 'scp', 'rsync', 'gh', 'gsutil', 'aws', 'az']);
/** Downloaders whose stdout is the fetched body only in some forms (`aws s3 cp URL -`). */
const DOWNLOAD_TO_STDOUT: Record<string, (argv: string[]) => boolean> = {
  gh: (a) => a[1] === 'api' || (a[1] === 'gist' && a[2] === 'view') || (a[1] === 'release' && a[2] === 'download' && a.includes('-O') && a[a.indexOf('-O') + 1] === '-'),
  gsutil: (a) => a[1] === 'cat',
  aws: (a) => a[1] === 's3' && a[2] === 'cp' && a[a.length - 1] === '-',
  az: (a) => a.includes('download') && a.includes('/dev/stdout'),
  scp: () => false,
  rsync: () => false,
};

/** File names that say they hold a script. */
const SCRIPT_FILE = /\.(?:sh|bash|zsh|ksh|fish|command|py|pl|rb|js|mjs|cjs|ts|php|lua)$/;

/** Decoders and filters whose output is known only when they run (on a text they are given). */
const RUNTIME_FILTERS = new Set(['openssl', 'gunzip', 'zcat', 'gzip', 'bzip2', 'bunzip2', 'bzcat', 'xz', 'unxz', 'xzcat', 'zstd', 'unzstd', 'zstdcat', 'lz4', 'uudecode', 'tr', 'sed', 'awk', 'gawk', 'mawk', 'perl', 'python', 'python3', 'ruby', 'node', 'jq', 'yq', 'gpg', 'iconv', 'cut', 'basenc', 'base32', 'recode', 'uncompress', 'brotli', 'unzip', 'tar', 'cpio', 'dd', 'envsubst', 'sort', 'uniq', 'head', 'tail', 'grep', 'strings']);

function echoOut(args: string[]): string {
  let k = 0;
  let newline = true;
  let escapes = false;
  while (k < args.length && /^-[neE]+$/.test(args[k])) {
    for (const f of args[k].slice(1)) {
      if (f === 'n') newline = false;
      else if (f === 'e') escapes = true;
      else escapes = false;
    }
    k++;
  }
  let text = args.slice(k).join(' ');
  if (escapes) {
    const stop = text.indexOf('\\c');
    if (stop >= 0) {
      text = text.slice(0, stop);
      newline = false;
    }
    text = decodeAnsiC(text.replace(/\\0([0-7]{1,3})/g, '\\$1'));
  }
  return newline ? text + '\n' : text;
}

/** printf FORMAT ARGS...: the format is reused until the arguments run out, as bash does. */
export function printfOut(args: string[]): string | undefined {
  // `printf -- FORMAT ...`: -- ends the options, the format follows.
  if (args[0] === '--') args = args.slice(1);
  const fmt = args[0];
  if (fmt === undefined) return undefined;
  if (fmt === '-v') return '';
  const rest = args.slice(1);
  let out = '';
  let used = 0;
  for (let round = 0; round < 64; round++) {
    let consumed = false;
    for (let i = 0; i < fmt.length; i++) {
      const c = fmt[i];
      if (c === '\\') {
        const m = /^\\(?:x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|.)/.exec(fmt.slice(i, i + 10));
        const seq = m ? m[0] : '\\';
        out += decodeAnsiC(seq);
        i += seq.length - 1;
        continue;
      }
      if (c !== '%') {
        out += c;
        continue;
      }
      const m = /^%([-+ #0]*)(\d*|\*)(?:\.(\d*|\*))?([sbdiouxXcqeEfgG%])/.exec(fmt.slice(i, i + 24));
      if (!m) return undefined;
      i += m[0].length - 1;
      if (m[4] === '%') {
        out += '%';
        continue;
      }
      const arg = rest[used] ?? '';
      if (used < rest.length) {
        used++;
        consumed = true;
      }
      let v: string;
      switch (m[4]) {
        case 's': v = arg; break;
        case 'b': v = decodeAnsiC(arg.replace(/\\0([0-7]{1,3})/g, '\\$1')); break;
        case 'q': v = arg; break;
        case 'c': v = arg.slice(0, 1); break;
        case 'd': case 'i': case 'u': v = String(parseInt(arg, 10) || 0); break;
        case 'o': v = (parseInt(arg, 10) || 0).toString(8); break;
        case 'x': v = (parseInt(arg, 10) || 0).toString(16); break;
        case 'X': v = (parseInt(arg, 10) || 0).toString(16).toUpperCase(); break;
        default: v = arg;
      }
      const width = m[2] && m[2] !== '*' ? Number(m[2]) : 0;
      if (width > MAX_FEED) return undefined;
      if (m[3] !== undefined && m[3] !== '*' && m[4] === 's') v = v.slice(0, Number(m[3] || 0));
      if (v.length < width) v = m[1].includes('-') ? v.padEnd(width) : v.padStart(width, m[1].includes('0') && m[4] !== 's' ? '0' : ' ');
      out += v;
      if (out.length > MAX_FEED) return undefined;
    }
    if (!consumed || used >= rest.length) break;
  }
  return out;
}

function decodeBase64(text: string): string | undefined {
  const clean = text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(clean)) return undefined;
  return Buffer.from(clean.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1');
}

function decodeHex(text: string): string | undefined {
  const clean = text.replace(/\s+/g, '');
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(clean)) return undefined;
  return Buffer.from(clean, 'hex').toString('latin1');
}

export interface OutputContext {
  /** What this command reads on stdin. */
  stdin: Feed;
  /** Content of a file this line wrote earlier (abs path), if any. */
  fileFeed: (path: string) => Feed | undefined;
  /** Output of a process substitution word (`cat <(...)`). */
  procsubFeed: (w: Word) => Feed;
  /** The folder the command runs in, when known (`pwd`, `realpath ..`). */
  cwd?: string;
  /** The project's root (what `git rev-parse --show-toplevel` prints inside it). */
  toplevel?: string;
}

/** `mktemp [-d] [-p DIR | --tmpdir[=DIR]] [TEMPLATE]`: a new name in the temp folder (or the template's folder). */
function mktempOutput(args: string[]): string {
  let dir: string | undefined;
  let template: string | undefined;
  for (let k = 0; k < args.length; k++) {
    const a = args[k];
    if (a === '-p' || a === '--tmpdir') dir = args[++k];
    else if (a.startsWith('--tmpdir=')) dir = a.slice(9);
    else if (/^-p./.test(a)) dir = a.slice(2);
    else if (a === '--suffix') k++;
    else if (!a.startsWith('-')) template = a;
  }
  const name = (template ?? 'tmp.XXXXXXXXXX').replace(/X+$/, (x) => 'q'.repeat(x.length));
  if (name.includes('/') && dir === undefined) return name + '\n';
  return posix.join(dir ?? '/tmp', name) + '\n';
}

/** Programs that print paths computed from their operands and the current folder. */
function pathOutput(name: string, args: string[], cwd: string | undefined): string | undefined {
  const ops = args.filter((a) => !a.startsWith('-'));
  const flags = args.filter((a) => a.startsWith('-'));
  switch (name) {
    case 'pwd':
      return cwd === undefined ? undefined : cwd + '\n';
    case 'dirname':
      return ops.length ? ops.map((o) => posix.dirname(o)).join('\n') + '\n' : undefined;
    case 'basename':
      return ops.length === 1 || (ops.length === 2 && flags.length === 0) ? posix.basename(ops[0], ops[1]) + '\n' : undefined;
    case 'realpath':
    case 'readlink':
      // Symlinks on disk are not followed here; a plain path resolves against the folder.
      if (cwd === undefined || ops.length === 0 || (name === 'readlink' && !flags.some((f) => /^-[a-z]*[fem]/.test(f) || f === '--canonicalize'))) return undefined;
      return ops.map((o) => posix.resolve(cwd, o)).join('\n') + '\n';
    default:
      return undefined;
  }
}

const concat = (feeds: Feed[]): Feed => {
  if (feeds.length === 1) return feeds[0];
  const dl = feeds.find((f) => f.kind === 'download');
  if (dl) return dl;
  if (feeds.every((f) => f.kind === 'static')) {
    // Texts that double on every append or `cat f f` would grow without bound: past MAX_FEED they are run-time.
    let n = 0;
    for (const f of feeds) n += (f as { text: string }).text.length;
    work.units += n;
    if (n > MAX_FEED) return { kind: 'runtime', why: `a text longer than ${MAX_FEED} characters` };
    return { kind: 'static', text: feeds.map((f) => (f as { text: string }).text).join('') };
  }
  const rt = feeds.find((f) => f.kind === 'runtime');
  if (rt) return { kind: 'runtime', why: rt.why };
  return feeds.find((f) => f.kind === 'program') ?? { kind: 'runtime', why: 'the output of several commands' };
};
export { concat as concatFeeds };

const GO_ENV_DEFAULTS: Record<string, string> = { GOCACHE: '~/.cache/go-build', GOMODCACHE: '~/go/pkg/mod', GOPATH: '~/go', GOBIN: '~/go/bin', GOTMPDIR: '/tmp' };

/** A jq filter that is only a JSON literal, object keys allowed bare (`{name: "x"}`), as its value; anything else: undefined. */
function jqLiteral(filter: string): unknown {
  // Bare keys quoted outside strings; a string holding `{a:` is left as it is.
  let out = '';
  for (const m of filter.matchAll(/"(?:[^"\\]|\\.)*"|([{,]\s*)([A-Za-z_]\w*)(\s*:)|[^"{,]+|[{,]/g)) out += m[2] !== undefined ? `${m[1]}"${m[2]}"${m[3]}` : m[0];
  try {
    return JSON.parse(out);
  } catch {
    return undefined;
  }
}

/** What a simple command (already unwrapped to its real name) writes to stdout. */
export function outputOf(name: string, words: Word[], o: OutputContext): Feed {
  const argv = words.map((w) => w.text);
  const dynamicArgs = words.slice(1).some((w) => w.dynamic && !w.text.startsWith('\u0000procsub'));
  if (name === 'pwd' || name === 'dirname' || name === 'basename' || name === 'realpath' || name === 'readlink') {
    if (dynamicArgs) return { kind: 'runtime', why: `${name} of a value only known at run time` };
    const text = pathOutput(name, argv.slice(1), o.cwd);
    return text === undefined ? { kind: 'program', name } : { kind: 'static', text };
  }
  // `command -v NAME`, `which NAME`, `type -P NAME`: where NAME is installed (loom: the project's own copy).
  const lookup = name === 'which' || name === 'whence' ? argv.slice(1).filter((x) => !x.startsWith('-')) : (name === 'command' && argv.includes('-v')) || (name === 'type' && argv.some((x) => /^-[a-zA-Z]*[pP]/.test(x))) ? argv.slice(1).filter((x) => !x.startsWith('-')) : undefined;
  if (lookup && lookup.length === 1 && !dynamicArgs && /^[\w.+-]+$/.test(lookup[0])) {
    const n = lookup[0];
    return { kind: 'static', text: (n === 'loom' && o.toplevel ? `${o.toplevel}/node_modules/.bin/loom` : `/usr/bin/${n}`) + '\n' };
  }
  if (name === 'mktemp' && !dynamicArgs) return { kind: 'static', text: mktempOutput(argv.slice(1)) };
  // `jq -n '{scripts: {test: "..."}}'`: a filter that is only a literal (object keys bare or quoted) prints that value.
  if ((name === 'jq' || name === 'gojq') && !dynamicArgs) {
    const flags = argv.slice(1).filter((a) => a.startsWith('-'));
    const ops = argv.slice(1).filter((a) => !a.startsWith('-'));
    if (flags.some((f) => /^-[a-zA-Z]*n/.test(f) || f === '--null-input') && flags.every((f) => /^-[nrcMSCj]+$|^--(?:null-input|raw-output|compact-output|monochrome-output|sort-keys)$/.test(f)) && ops.length === 1 && ops[0].length <= MAX_FEED) {
      const value = jqLiteral(ops[0]);
      if (value !== undefined) return { kind: 'static', text: JSON.stringify(value, null, 2) + '\n' };
    }
  }
  // `go env GOCACHE`: Go's own folders, at their defaults (a value set in the environment is the user's own choice).
  if (name === 'go' && argv[1] === 'env' && argv.length === 3 && !dynamicArgs && Object.hasOwn(GO_ENV_DEFAULTS, argv[2])) return { kind: 'static', text: GO_ENV_DEFAULTS[argv[2]] + '\n' };
  // `python3 -m site --user-site`: the user's site folder (the version in its name does not matter to a rule).
  if (/^python(?:\d+(?:\.\d+)?)?$/.test(name) && argv[1] === '-m' && argv[2] === 'site' && argv.length === 4 && !dynamicArgs) {
    if (argv[3] === '--user-site') return { kind: 'static', text: '~/.local/lib/python3/site-packages\n' };
    if (argv[3] === '--user-base') return { kind: 'static', text: '~/.local\n' };
  }
  if (name === 'git' && o.toplevel && argv.includes('rev-parse') && argv.includes('--show-toplevel') && !dynamicArgs && (o.cwd === undefined || o.cwd === o.toplevel || o.cwd.startsWith(o.toplevel + '/'))) return { kind: 'static', text: o.toplevel + '\n' };
  // --git-dir: `.git` at the top of the tree, the absolute path below it.
  if (name === 'git' && o.toplevel && argv.includes('rev-parse') && argv.includes('--git-dir') && argv.length === 3 && !dynamicArgs && (o.cwd === undefined || o.cwd === o.toplevel || o.cwd.startsWith(o.toplevel + '/'))) return { kind: 'static', text: (o.cwd === undefined || o.cwd === o.toplevel ? '.git' : o.toplevel + '/.git') + '\n' };
  if (name === 'echo' || name === 'printf') {
    if (dynamicArgs) {
      // Known but for its run-time parts: a shell fed it still sees the static commands.
      const text = name === 'echo' ? echoOut(argv.slice(1)) : words[1]?.dynamic ? undefined : printfOut(argv.slice(1));
      return { kind: 'runtime', why: `${name} of a value only known at run time`, text: text?.replace(/\u0000procsub:.\(/g, '\u0000') };
    }
    const text = name === 'echo' ? echoOut(argv.slice(1)) : printfOut(argv.slice(1));
    return text === undefined ? { kind: 'runtime', why: `${name} with a format loom does not evaluate` } : { kind: 'static', text };
  }
  if (name === 'cat' || name === 'tac' || name === 'tee' || name === 'rev' || name === 'base64' || name === 'xxd' || name === 'basenc') {
    // Input: file operands (cat/tac), else stdin.
    const files = name === 'cat' || name === 'tac' || name === 'rev' || name === 'base64' || name === 'xxd' ? words.slice(1).filter((w) => !w.text.startsWith('-') || w.text === '-') : [];
    let input: Feed;
    if (name === 'xxd' && files.length > 1) files.length = 1;
    if (files.length === 0) input = o.stdin;
    else {
      input = concat(
        files.map((w): Feed => {
          if (w.text === '-' || w.text === '/dev/stdin') return o.stdin;
          if (w.text.startsWith('\u0000procsub:<(')) return o.procsubFeed(w);
          if (w.dynamic) return { kind: 'runtime', why: 'a file named at run time' };
          return o.fileFeed(w.text) ?? { kind: 'file', path: w.text };
        }),
      );
    }
    // A data file's text piped on (`cat notes.txt | bash`, `source <(cat cmds)`) is code only known when it runs;
    // a script by its name (`cat install.sh | bash`) is run like `bash install.sh`.
    if (name === 'cat' && input.kind === 'file' && !SCRIPT_FILE.test(input.path)) return { kind: 'runtime', why: `the content of ${input.path}` };
    if (name === 'cat' || name === 'tee') return input;
    if (input.kind !== 'static') {
      if (input.kind === 'file') return { kind: 'runtime', why: `${name} of a file` };
      // Only cat and tee (above) pass a partly known text through unchanged.
      return input.kind === 'runtime' ? { kind: 'runtime', why: input.why } : input;
    }
    if (name === 'tac') return { kind: 'static', text: input.text.split('\n').reverse().join('\n') };
    if (name === 'rev') return { kind: 'static', text: input.text.split('\n').map((l) => [...l].reverse().join('')).join('\n') };
    const decode = argv.some((a) => a === '-d' || a === '--decode' || a === '-D' || (/^-[a-zA-Z]+$/.test(a) && a.includes('d')));
    if (name === 'base64' || name === 'basenc') {
      if (!decode) return { kind: 'runtime', why: 'base64 encoding' };
      // basenc names its encoding: hex (--base16) is decoded; the others (base32, base2, z85, ...) are only known at run time.
      if (name === 'basenc') {
        const enc = argv.find((a) => /^--(?:base(?:16|32|32hex|64|64url|2msbf|2lsbf)|z85)$/.test(a));
        if (enc === '--base16') {
          const h = decodeHex(input.text.replace(/\s+/g, '').toLowerCase());
          return h === undefined ? { kind: 'runtime', why: 'basenc --base16 -d of an invalid text' } : { kind: 'static', text: h };
        }
        if (enc !== '--base64' && enc !== '--base64url') return { kind: 'runtime', why: `basenc ${enc ?? ''} -d` };
      }
      const t = decodeBase64(input.text);
      return t === undefined ? { kind: 'runtime', why: 'base64 -d of an invalid text' } : { kind: 'static', text: t };
    }
    // xxd -r -p: hex back to bytes; other xxd forms are not code.
    if (argv.includes('-r') && (argv.includes('-p') || argv.includes('-ps') || argv.includes('-plain'))) {
      const t = decodeHex(input.text);
      return t === undefined ? { kind: 'runtime', why: 'xxd -r of a text loom cannot decode' } : { kind: 'static', text: t };
    }
    if (argv.some((a) => /^-[a-z]*r/.test(a))) return { kind: 'runtime', why: 'xxd -r' };
    return { kind: 'runtime', why: 'a hex dump' };
  }
  if (isShellCodeGenerator(argv)) return { kind: 'program', name: posix.basename(name), argv: [posix.basename(name), ...argv.slice(1)] };
  if (DOWNLOADERS.has(name)) {
    if (Object.hasOwn(DOWNLOAD_TO_STDOUT, name) && !DOWNLOAD_TO_STDOUT[name](argv)) return { kind: 'runtime', why: `${name} output` };
    if (name === 'nc' || name === 'ncat' || name === 'socat') return { kind: 'download', by: name };
    // curl -o FILE / wget -O FILE (not -O-) write a file, not stdout.
    const toFile = name === 'wget' ? !argv.some((a, i) => (a === '-O' && argv[i + 1] === '-') || a === '-O-' || a === '-qO-' || /^-[a-zA-Z]*O-$/.test(a) || a === '--output-document=-' || (a === '--output-document' && argv[i + 1] === '-')) : argv.some((a) => a === '-o' || a === '-O' || a === '--output' || a === '--remote-name' || /^--output=/.test(a) || /^-[a-zA-Z]*[oO]$/.test(a));
    if (toFile && (name === 'curl' || name === 'wget')) return NONE;
    return { kind: 'download', by: name };
  }
  if (RUNTIME_FILTERS.has(name)) {
    if (o.stdin.kind === 'download') return o.stdin;
    return { kind: 'runtime', why: `the output of ${name}` };
  }
  if (name === 'true' || name === ':' || name === 'cd' || name === 'export' || name === 'mkdir' || name === 'chmod' || name === 'touch' || name === 'rm' || name === 'sleep') return { kind: 'static', text: '' };
  return { kind: 'program', name: posix.basename(name), argv: [posix.basename(name), ...argv.slice(1)] };
}

/** Files a download command writes (curl -o F, wget -O F, curl -O / wget URL: the URL's last segment). */
export function downloadedFiles(name: string, argv: string[]): string[] {
  const out: string[] = [];
  const urls = argv.filter((a) => /^(?:https?|ftp):\/\//.test(a));
  const last = (u: string) => u.replace(/[?#].*$/, '').replace(/\/+$/, '').split('/').pop() || 'index.html';
  if (name === 'curl') {
    for (let k = 1; k < argv.length; k++) {
      const a = argv[k];
      if (a === '-o' || a === '--output') out.push(argv[k + 1] ?? '');
      else if (a.startsWith('--output=')) out.push(a.slice(9));
      else if (/^-[a-zA-Z]*o$/.test(a) && a !== '-o') out.push(argv[k + 1] ?? '');
      else if (/^-o./.test(a)) out.push(a.slice(2));
      else if (a === '-O' || a === '--remote-name' || /^-[a-zA-Z]*O[a-zA-Z]*$/.test(a)) for (const u of urls) out.push(last(u));
    }
  } else if (name === 'wget') {
    let named = false;
    for (let k = 1; k < argv.length; k++) {
      const a = argv[k];
      if (a === '-O' || a === '--output-document') {
        out.push(argv[k + 1] ?? '');
        named = true;
      } else if (a.startsWith('--output-document=')) {
        out.push(a.slice(18));
        named = true;
      } else if (/^-[a-zA-Z]*O.+$/.test(a)) {
        out.push(a.slice(a.indexOf('O') + 1));
        named = true;
      } else if (/^-[a-zA-Z]*O$/.test(a)) {
        out.push(argv[k + 1] ?? '');
        named = true;
      }
    }
    if (!named) for (const u of urls) out.push(last(u));
  }
  return out.filter((f) => f !== '' && f !== '-');
}
