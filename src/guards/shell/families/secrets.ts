// The secrets family: reading a secret file (tables/secrets.ts; a glob that
// can match one is that file), carrying a credential folder off whole (cp -r,
// tar, zip, rsync, scp of ~/.ssh, ~/.aws ...), uploading a file's content
// (curl -d @f, -F x=@f, -T f, wget --post-file=f, httpie @f), publishing it
// (gh gist create .env), and sending the environment over the network
// (`env | curl -d @-`, `printenv | nc`, `curl -d "$(env)"`).
import { posix } from 'node:path';
import { carriesFolder, readsPath, writesPath } from '../path-rules';
import type { Rule, RuleContext } from '../rules';
import { CLOUD_COPIERS, CONFIG_PRINTERS, ENV_DUMPERS, TRANSFER_SCRIPTS, TRANSFER_SENDS, JQ_ENV_READERS, FOLDER_CARRIERS, METADATA_HOSTS, METADATA_SECRET_PATHS, HISTORY_PRINTERS, FOLDER_SERVERS, NETWORK_SENDERS, PLAIN_VARS, SECRET_PRINTERS, SECRET_VAR_NAMES, SECRET_VAR_PARTS, SECRET_VAR_SERVICES, UPLOAD_OPTIONS } from '../tables/secrets';
import { operands, own } from './args';
import { innerName } from './download';

/** Programs that print or send the content of their file operands. */
export const READERS = ['sqlite3', 'cat', 'tac', 'less', 'more', 'most', 'head', 'tail', 'bat', 'batcat', 'view', 'nl', 'strings', 'xxd', 'od', 'hexdump', 'hd', 'base64', 'base32', 'basenc', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'awk', 'gawk', 'mawk', 'sed', 'sort', 'uniq', 'cut', 'jq', 'yq', 'diff', 'cmp', 'vim', 'vi', 'nvim', 'nano', 'emacs', 'pico', 'ed', 'ex', 'code', 'open', 'xdg-open', 'gpg', 'openssl', 'zip', 'gzip', 'bzip2', 'xz', 'zstd', 'nc', 'ncat', 'netcat', 'socat', 'pbcopy', 'xclip', 'xsel', 'wl-copy', 'column', 'fold', 'paste', 'tr', 'dd', 'iconv', 'dos2unix', 'split', 'csplit', 'look', 'comm', 'join', 'expand', 'unexpand', 'fmt', 'pr', 'rev', 'numfmt', 'mail', 'lp', 'lpr', 'age', 'envsubst', 'split', 'csplit', 'unshadow'];
/** Readers whose first operand is a pattern or a script, not a file. */
const PATTERN_FIRST = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'sed', 'awk', 'gawk', 'mawk', 'jq', 'yq', 'look']);
/** Per reader, the options that take the next word as their value (so that word is not a file). */
const OPTIONS_WITH_VALUE: Record<string, string[]> = {
  grep: ['-e', '-f', '-m', '-A', '-B', '-C', '-d', '-D', '--regexp', '--file', '--include', '--exclude', '--exclude-dir', '--max-count', '--context', '--label'],
  rg: ['-e', '-f', '-m', '-A', '-B', '-C', '-g', '-t', '-T', '--glob', '--type', '--regexp', '--file', '--max-count', '-M', '-j', '--iglob', '-E', '--encoding'],
  ag: ['-G', '--ignore', '-A', '-B', '-C', '-m'],
  ack: ['--type', '-A', '-B', '-C', '-m'],
  sed: ['-e', '-f', '-l', '--expression', '--file', '--line-length'],
  awk: ['-f', '-v', '-F', '--file', '--assign', '--field-separator'],
  jq: ['--arg', '--argjson', '--slurpfile', '--rawfile', '--indent', '-L', '--args', '-f', '--from-file'],
  yq: ['-o', '--output-format', '-p', '--input-format', '-I', '--indent'],
  head: ['-n', '-c', '--lines', '--bytes'],
  tail: ['-n', '-c', '--lines', '--bytes', '-s', '--sleep-interval', '--pid'],
  cut: ['-d', '-f', '-c', '-b', '--delimiter', '--fields', '--characters', '--bytes', '--output-delimiter'],
  sort: ['-k', '-t', '-o', '-S', '-T', '--key', '--field-separator', '--output', '--buffer-size', '--temporary-directory', '--parallel'],
  uniq: ['-f', '-s', '-w', '--skip-fields', '--skip-chars', '--check-chars'],
  diff: ['-x', '-X', '-I', '-L', '--label', '--exclude', '--exclude-from', '--ignore-matching-lines', '-U', '-C', '--unified', '--context'],
  xxd: ['-l', '-s', '-c', '-g', '-o', '-n'],
  od: ['-A', '-j', '-N', '-t', '-w', '-S'],
  hexdump: ['-n', '-s', '-e', '-f'],
  base64: ['-w', '--wrap'],
  nl: ['-b', '-h', '-f', '-v', '-i', '-l', '-s', '-w', '-n', '-d'],
  split: ['-l', '-b', '-C', '-n', '-a', '--additional-suffix'],
  gpg: ['-o', '--output', '-r', '--recipient', '-u', '--local-user', '--passphrase', '--homedir', '--default-key', '--trust-model', '--cipher-algo', '--digest-algo', '--compress-algo'],
  openssl: ['-in', '-out', '-inkey', '-key', '-pass', '-passin', '-passout', '-cipher', '-md', '-k', '-K', '-iv', '-certfile', '-CAfile', '-name', '-keyout', '-certout', '-newkey', '-subj', '-days', '-config', '-extensions', '-reqexts', '-addext', '-extfile', '-CA', '-CAkey', '-CAserial', '-CApath', '-set_serial', '-signkey', '-outform', '-inform', '-keyform', '-connect', '-servername', '-cert', '-nameopt', '-certopt', '-sigopt', '-pkeyopt', '-rand', '-writerand', '-engine', '-provider', '-algorithm', '-macopt', '-mac', '-digest', '-sign', '-verify', '-signature', '-pubout', '-dates'].filter((o) => o !== '-pubout' && o !== '-dates'),
  nc: ['-p', '-s', '-w', '-i', '-q', '-e', '-c', '-x', '-X', '-P', '-T', '-V', '-I', '-O'],
  less: ['-b', '-h', '-j', '-k', '-o', '-O', '-p', '-P', '-t', '-T', '-x', '-y', '-z', '-#'],
  iconv: ['-f', '-t', '-o', '--from-code', '--to-code', '--output'],
};
const COMMON_WITH_VALUE: string[] = [];

const READER_SET = new Set(READERS);

/**
 * A read that prints none of the file's values: a count or a yes/no (`grep -c`, `grep -q`, `grep -l`),
 * the names before `=` of an env file (`cut -d= -f1 .env`, `awk -F= '{print $1}' .env`).
 */
function printsNoValues(r: RuleContext): boolean {
  const a = r.argv;
  if (r.name === 'grep' || r.name === 'egrep' || r.name === 'fgrep' || r.name === 'rg') return a.some((x) => /^-[a-zA-Z]*[cqlL][a-zA-Z]*$/.test(x) && !/^-[a-zA-Z]*[efmABCdD]/.test(x) || x === '--count' || x === '--quiet' || x === '--silent' || x === '--files-with-matches' || x === '--files-without-match');
  if (r.name === 'cut') {
    const d = a.find((x, i) => x.startsWith('-d') && (x.length > 2 ? x.slice(2) : a[i + 1]) !== undefined);
    const delim = d === undefined ? undefined : d.length > 2 ? d.slice(2) : a[a.indexOf(d) + 1];
    const f = a.find((x, i) => x.startsWith('-f') || a[i - 1] === '-f');
    const fields = f === undefined ? undefined : f.startsWith('-f') && f.length > 2 ? f.slice(2) : f === '-f' ? a[a.indexOf(f) + 1] : f;
    return (delim === '=' || delim === ':') && fields === '1';
  }
  if (r.name === 'awk' || r.name === 'gawk' || r.name === 'mawk') return a.some((x) => /^-F['"]?[=:]['"]?$/.test(x) || x === '-F') && a.some((x) => /^\{\s*print\s+\$1\s*\}$/.test(x.trim()));
  return false;
}

const readers: Rule = (r) => {
  if (!READER_SET.has(r.name)) return;
  if (printsNoValues(r)) return;
  if (r.name === 'dd') {
    const inf = r.argv.find((a) => a.startsWith('if='));
    if (inf) readsPath(r.analyzer, inf.slice(3), r.cwd, r.segment);
    return;
  }
  if (r.name === 'mail') return;
  if (r.name === 'sqlite3') {
    const db = operands(r.argv, 1, ['-cmd', '-separator', '-newline', '-nullvalue', '-init', '-vfs', '-maxsize', '-mmap', '-pagecache', '-lookaside', '-heap'])[0];
    if (db) readsPath(r.analyzer, db, r.cwd, r.segment);
    return;
  }
  const explicitPattern = r.argv.some((a) => a === '-e' || a === '-f' || a.startsWith('--regexp') || a === '--file');
  const withValue = (Object.prototype.hasOwnProperty.call(OPTIONS_WITH_VALUE, r.name) ? OPTIONS_WITH_VALUE[r.name] : undefined) ?? (r.name === 'egrep' || r.name === 'fgrep' ? OPTIONS_WITH_VALUE.grep : r.name === 'gawk' || r.name === 'mawk' ? OPTIONS_WITH_VALUE.awk : r.name === 'openssl' ? [] : COMMON_WITH_VALUE);
  const ops = operands(r.argv, 1, withValue);
  const files = PATTERN_FIRST.has(r.name) && !explicitPattern ? ops.slice(1) : ops;
  // A recursive search reads whole folders: a credential folder (or one holding it) is read whole.
  const recursive = r.name === 'rg' || r.name === 'ag' || r.name === 'ack' || (['grep', 'egrep', 'fgrep'].includes(r.name) && r.argv.some((a) => /^-[a-zA-Z]*[rR]/.test(a) || a === '--recursive' || a === '--dereference-recursive'));
  for (const f of files) (recursive ? carriesFolder : readsPath)(r.analyzer, f, r.cwd, r.segment);
  if (r.name === 'openssl') for (let k = 1; k < r.argv.length - 1; k++) if (['-in', '-inkey', '-key', '-kfile', '-passin', '-CAkey', '-signkey', '-sign'].includes(r.argv[k])) readsPath(r.analyzer, r.argv[k + 1].replace(/^file:/, ''), r.cwd, r.segment);
  // Values of --file=X / -f X name files too.
  for (const a of r.argv) if (a.startsWith('--file=') || a.startsWith('--input=')) readsPath(r.analyzer, a.slice(a.indexOf('=') + 1), r.cwd, r.segment);
  // A file list a substitution prints (`cat "$(ls -d ~/.ssh/id_* | head -1)"`, `cat $(find ~/.aws -type f)`): what it lists is read.
  for (const w of r.words.slice(1)) for (const sub of (w.subs ?? []).slice(0, 8)) {
    if (!LISTER.test(sub.src)) continue;
    const words = sub.src.split('|')[0].trim().split(/\s+/);
    const lister = posix.basename(words[0]);
    const whole = lister !== 'ls' && lister !== 'echo' && lister !== 'printf' || words.some((x) => /^-[a-zA-Z]*R/.test(x) || x === '--recursive');
    for (const root of words.slice(1).filter((x) => !x.startsWith('-')).slice(0, 16)) (whole ? carriesFolder : readsPath)(r.analyzer, root.replace(/^["']|["']$/g, ''), r.cwd, r.segment);
  }
};

/** Reads that are not a reader's operands: a file:// URL, the items file of xargs or parallel. */
const indirectReads: Rule = (r) => {
  // A file:// URL is a local read (`curl -s file:///home/dev/.ssh/id_rsa`).
  if (URL_READERS.has(r.name)) for (const a of r.argv.slice(1)) {
    const m = /^file:\/\/(?:localhost)?(\/.*)$/i.exec(a);
    if (m) readsPath(r.analyzer, decodeFileUrl(m[1]), r.cwd, r.segment);
  }
  // Items read from a file (`xargs -a .env ...`, `parallel -a .env`, `parallel ... :::: .env`): the file is read.
  if (r.name === 'xargs' || r.name === 'parallel') {
    for (let k = 1; k < r.argv.length; k++) {
      const a = r.argv[k];
      if (a === '-a' || a === '--arg-file' || (r.name === 'parallel' && a === '::::')) readsPath(r.analyzer, r.argv[k + 1] ?? '', r.cwd, r.segment);
      else if (a.startsWith('--arg-file=')) readsPath(r.analyzer, a.slice(11), r.cwd, r.segment);
      else if (/^-a./.test(a)) readsPath(r.analyzer, a.slice(2), r.cwd, r.segment);
    }
  }
};

/** Programs that fetch a URL, a file:// one included. */
const URL_READERS = new Set(['curl', 'wget', 'wget2', 'http', 'https', 'xh', 'curlie', 'aria2c', 'lynx', 'w3m', 'links', 'elinks']);

indirectReads.names = [...URL_READERS, 'xargs', 'parallel'];

function decodeFileUrl(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** `lftp -e 'put .env'`, `smbclient -c 'put .env'`, an ftp script on stdin: each file a send command names is read and sent. */
const transferScripts: Rule = (r) => {
  const opts = own(TRANSFER_SCRIPTS, r.name);
  if (!opts) return;
  const texts: string[] = [];
  for (let k = 1; k < r.argv.length; k++) if (opts.includes(r.argv[k]) && r.argv[k + 1] !== undefined) texts.push(r.argv[++k]);
  const here = r.cmd.heredoc && !r.cmd.heredoc.dynamic ? r.cmd.heredoc.text : undefined;
  const str = r.cmd.redirects.find((x) => x.op === '<<<' && !x.target.dynamic)?.target.text;
  const fed = here ?? str ?? (r.stdin?.kind === 'static' ? r.stdin.text : undefined);
  if (fed !== undefined) texts.push(fed);
  for (const text of texts.slice(0, 8)) {
    for (const cmd of text.split(/[;\n]/).slice(0, 256)) {
      const words = cmd.trim().split(/\s+/);
      const two = words.slice(0, 2).join(' ');
      const verb = TRANSFER_SENDS.test(two) ? two : TRANSFER_SENDS.test(words[0] ?? '') ? words[0] : undefined;
      if (!verb) continue;
      for (const f of words.slice(verb.split(' ').length).filter((w) => !w.startsWith('-')).slice(0, 16)) carriesFolder(r.analyzer, f.replace(/^["']|["']$/g, ''), r.cwd, r.segment);
    }
  }
};
transferScripts.names = Object.keys(TRANSFER_SCRIPTS);

/** cp/scp/rsync/tar/zip of a credential folder, or of a folder holding one. */
const carriers: Rule = (r) => {
  if (!FOLDER_CARRIERS.includes(r.name)) return;
  if (r.name === 'aws' || r.name === 'gsutil' || r.name === 'az' || r.name === 'rclone' || CLOUD_COPIERS.includes(r.name)) {
    for (const o of operands(r.argv)) if (o.startsWith('/') || o.startsWith('~') || o.startsWith('.')) carriesFolder(r.analyzer, o, r.cwd, r.segment);
    return;
  }
  const tarLike = ['tar', 'bsdtar', 'gtar', 'zip', '7z', '7za', '7zz', 'rar', 'cpio', 'pax'].includes(r.name);
  let ops = operands(r.argv, 1, ['-C', '--directory', '-f', '--file', '-x', '-X', '-T', '-i', '--exclude', '-e', '-t', '--target-directory', '-S', '--suffix', '-P', '-p', '-b']);
  if (tarLike && r.name === 'tar') {
    // tar czf ARCHIVE files...: the archive name comes with the f in the first cluster.
    const first = r.argv[1] ?? '';
    if (/^-?[A-Za-z]*f[A-Za-z]*$/.test(first) && !first.startsWith('--')) ops = r.argv.slice(3).filter((a) => !a.startsWith('-'));
    if (/^-?[A-Za-z]*x[A-Za-z]*$/.test(first) || r.argv.some((a) => a === '-x' || a === '--extract' || a === '--get')) return;
    const dirIdx = r.argv.findIndex((a) => a === '-C' || a === '--directory');
    const base = dirIdx > 0 ? posix.resolve(r.cwd, r.argv[dirIdx + 1] ?? '.') : r.cwd;
    for (const o of ops) carriesFolder(r.analyzer, o, base, r.segment);
    return;
  }
  if (r.name === 'zip' || r.name === '7z' || r.name === '7za' || r.name === '7zz' || r.name === 'rar') ops = ops.slice(r.name === 'zip' ? 1 : 2);
  if (r.name === 'install') ops = operands(r.argv, 1, ['-m', '--mode', '-o', '--owner', '-g', '--group', '-t', '--target-directory', '-S', '--suffix']);
  // ln -s SECRET LINK publishes the secret under another name (a web root, a folder that is committed).
  if (r.name === 'ln' && !r.argv.some((a) => /^-[a-zA-Z]*s/.test(a) || a === '--symbolic')) return;
  const sources = ['cp', 'scp', 'rsync', 'ditto', 'sftp', 'install', 'ln'].includes(r.name) ? ops.slice(0, -1) : ops;
  for (const s of sources) if (!/^[^/]*:/.test(s) || s.startsWith('./')) carriesFolder(r.analyzer, s, r.cwd, r.segment);
};

/** File content sent by a network client: curl -d @f, -F x=@f, -T f, wget --post-file=f, httpie field@f. */
const uploads: Rule = (r) => {
  const spec = own(UPLOAD_OPTIONS, r.name);
  if (!spec) return;
  const argv = r.argv;
  for (let k = 1; k < argv.length; k++) {
    const a = argv[k];
    let opt = a;
    let value: string | undefined;
    const eq = a.indexOf('=');
    if (a.startsWith('--') && eq > 0) {
      opt = a.slice(0, eq);
      value = a.slice(eq + 1);
    } else if (/^-[A-Za-z]/.test(a) && a.length > 2) {
      // -d@file, -Tfile: the value is attached; -sSd: the last letter of the cluster takes the next word.
      if (spec.file.includes('-' + a[1]) || spec.at.includes('-' + a[1])) {
        opt = '-' + a[1];
        value = a.slice(2);
      } else if (/^-[A-Za-z]+$/.test(a)) opt = '-' + a[a.length - 1];
    }
    const takes = spec.file.includes(opt) || spec.at.includes(opt);
    if (!takes) continue;
    if (value === undefined) value = argv[++k] ?? '';
    if (spec.file.includes(opt)) {
      if (value !== '-' && value !== '.') readsPath(r.analyzer, value, r.cwd, r.segment);
      continue;
    }
    // @file at the start or after name= ; <file in -F name=<file ; name@file in --data-urlencode
    const m = opt === '--data-urlencode' ? /^[^=@]*@([^;,]+)$/.exec(value) ?? /(?:^|=)@([^;,]+)/.exec(value) : /(?:^|=)[@<]([^;,]+)/.exec(value);
    if (m && m[1] !== '-') readsPath(r.analyzer, m[1].replace(/^["']|["']$/g, ''), r.cwd, r.segment);
  }
  // httpie / xh: `field@path`, `field=@path`, `@path`, `field:=@path`
  if (r.name === 'http' || r.name === 'https' || r.name === 'xh') {
    for (const a of argv.slice(1)) {
      const m = /^(?:[A-Za-z0-9_.[\]-]*(?:=|:=)?)@(.+)$/.exec(a);
      if (m && !a.startsWith('-')) readsPath(r.analyzer, m[1], r.cwd, r.segment);
    }
  }
};

/** gh gist create .env, gh release upload v1 .env, gh secret-less publishing of files. */
const publish: Rule = (r) => {
  if (r.name !== 'gh') return;
  const [, group, action] = r.argv;
  const files = operands(r.argv, 3, ['-d', '--desc', '--description', '-f', '--filename', '-R', '--repo', '--clobber', '-b', '--body']);
  if (group === 'gist' && (action === 'create' || action === 'new' || action === 'edit')) for (const f of files) readsPath(r.analyzer, f, r.cwd, r.segment);
  if (group === 'release' && (action === 'upload' || action === 'create')) for (const f of files.slice(1)) readsPath(r.analyzer, f.replace(/#.*$/, ''), r.cwd, r.segment);
};

/** Container engines whose `inspect` prints a container's environment through a template. */
const CONTAINER_INSPECTORS = ['docker', 'podman', 'nerdctl'];

function isEnvDump(words: string[]): boolean {
  const n = words[0] ? posix.basename(words[0]) : '';
  // A container's environment by its inspect template (`docker inspect -f '{{.Config.Env}}' app`).
  if (CONTAINER_INSPECTORS.includes(n)) return words.includes('inspect') && words.some((a, i) => /\.(?:Config\.)?Env\b/.test(a) && (/^(?:-f|--format)(?:=|$)/.test(words[i - 1] ?? '') || /^--format=/.test(a) || /^-f./.test(a)));
  if (!ENV_DUMPERS.includes(n)) return false;
  if (n === 'env') return words.slice(1).every((a) => a.startsWith('-') && a !== '-u' && a !== '--unset') && !words.slice(1).some((a) => /^[A-Za-z_]\w*=/.test(a));
  if (n === 'printenv') return true;
  if (n === 'export' || n === 'declare' || n === 'typeset') return words.slice(1).every((a) => /^-[pxg]+$/.test(a));
  if (n === 'set') return words.length === 1;
  if (n === 'compgen') return words.includes('-v') || words.includes('-e');
  // A filter that is the environment, or starts from it: `env`, `$ENV`, `env | to_entries`, `$ENV | keys`.
  if (JQ_ENV_READERS.includes(n)) return words.slice(1).some((a) => !a.startsWith('-') && /^\s*\(?\s*(?:\$ENV|env)\s*(?:$|[|)\[.])/.test(a));
  return false;
}

/** A configuration printed with its secrets resolved (tables/secrets.ts CONFIG_PRINTERS). */
function printsConfig(words: string[]): boolean {
  const n = words[0] ? posix.basename(words[0]) : '';
  const ops = words.slice(1).filter((w) => !w.startsWith('-') || w === '--list');
  return CONFIG_PRINTERS.some((p) => p[0] === n && p.slice(1).every((w, i) => ops[i] === w));
}

/** The shell history printed (history, fc -l): every secret ever typed. */
function isHistoryDump(words: string[]): boolean {
  const n = words[0] ? posix.basename(words[0]) : '';
  if (!HISTORY_PRINTERS.includes(n)) return false;
  return n === 'history' ? words.slice(1).every((a) => /^\d+$/.test(a)) : words.includes('-l') || words.includes('-ln') || words.includes('-nl');
}

const SECRET_PART_SET = new Set(SECRET_VAR_PARTS);
const PLAIN_SET = new Set(PLAIN_VARS);
/** Whether an environment variable holds a secret (by name, or because a .env was loaded on the line). */
export function isSecretVar(name: string, loaded: boolean): boolean {
  if (PLAIN_SET.has(name) || name === 'PWD' || /^\d+$|^[@*#?$!-]$/.test(name)) return false;
  if (SECRET_VAR_NAMES.test(name)) return true;
  const parts = name.toUpperCase().split('_');
  if (parts.some((p) => SECRET_PART_SET.has(p))) return true;
  return loaded && /[A-Z]/.test(name) && name === name.toUpperCase();
}

/** Variables a word expands, from its source text ($NAME, ${NAME}, ${NAME:-x}). */
function varsOf(raw: string | undefined): string[] {
  if (!raw || !raw.includes('$')) return [];
  const out: string[] = [];
  const re = /(?<!\\)\$\{?([A-Za-z_][A-Za-z0-9_]*)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(raw)) && out.length < 20) out.push(m[1]);
  // `$(printenv NAME ...)`: the substitution prints that variable into the word.
  for (const p of raw.matchAll(/\bprintenv\s+([A-Za-z_][A-Za-z0-9_]*)/g)) if (out.length < 20) out.push(p[1]);
  // Inside single quotes nothing expands.
  return raw.startsWith("'") && raw.endsWith("'") ? [] : out;
}

/** The destination host of a network command (its first URL or host-like operand). */
function destination(argv: string[]): string {
  const url = argv.find((a) => /^[a-z][a-z0-9+.-]*:\/\//i.test(a));
  if (url) return url.replace(/^[a-z][a-z0-9+.-]*:\/\/(?:[^@/]*@)?/i, '').split(/[/:?#]/)[0].toLowerCase();
  return (argv.slice(1).find((a) => !a.startsWith('-') && /[.]/.test(a)) ?? '').toLowerCase();
}

/** A secret variable may go to its own service (GITHUB_TOKEN to api.github.com). */
function ownService(name: string, host: string): boolean {
  const first = name.toUpperCase().split('_')[0];
  const words = own(SECRET_VAR_SERVICES, first);
  return !!words && words.some((w) => host.includes(w));
}

/** Options whose value is sent as a credential or header to the destination (a token used, not leaked). */
const HEADER_OPTIONS = new Set(['-H', '--header', '-u', '--user', '--oauth2-bearer', '--proxy-user', '-U', '--proxy-header', '--http-user', '--http-password', '--password', '--user-agent', '-A', '-e', '--referer', '-b', '--cookie', '--aws-sigv4']);
/** Tools whose destination is a name looked up: a secret in that name is what leaves (a DNS query to the attacker's server). */
const DNS_SENDERS = new Set(['dig', 'nslookup', 'host', 'drill', 'kdig', 'ping', 'ping6']);
const STDIN_READERS = new Set(['nc', 'ncat', 'netcat', 'socat', 'telnet', 'openssl', 'mail', 'sendmail', 'mutt']);

/** Secret environment variables sent to another host: in a URL, a body, or piped into a network client. */
const secretVarsSent: Rule = (r) => {
  const net = sendsToNetwork(r);
  if (!net || net === 'ssh' || net === 'scp' || net === 'gh' || net === 'aws' || net === 'gsutil' || net === 'rclone') return;
  const loaded = r.analyzer.secretsLoaded;
  const host = destination(r.argv);
  const leak = (name: string, how: string) => r.analyzer.hit('env-exfiltration', 'deny', r.segment, `sends the secret $${name} to ${host || net} ${how}`);
  for (let k = 1; k < r.words.length; k++) {
    const a = r.argv[k];
    const prev = r.argv[k - 1];
    if (HEADER_OPTIONS.has(prev) || /^--(?:header|user|oauth2-bearer|proxy-user|http-user|http-password|password|cookie)=/.test(a) || /^-[HuAb]./.test(a)) continue;
    // The destination itself held in a variable (`curl -d x "$SLACK_WEBHOOK_URL"`): the secret is where it goes, not what goes.
    if (!DNS_SENDERS.has(net) && !a.startsWith('-') && !/^(?:-d|--data\S*|--json|-F|--form|--url-query|-G)$/.test(prev) && /^["']?\$\{?[A-Za-z_]\w*\}?/.test(r.words[k].raw ?? '')) continue;
    for (const v of varsOf(r.words[k].raw)) {
      if (isSecretVar(v, loaded) && !ownService(v, host)) {
        leak(v, 'in its URL or body');
        return;
      }
    }
  }
  // Piped in: `echo $TOKEN | nc host 80`, `printenv AWS_SECRET_ACCESS_KEY | curl -d @- ...`, `... <<< "$TOKEN"`.
  const readsStdin = STDIN_READERS.has(net) || r.argv.some((a, i) => a === '@-' || /^@-$|^-d@-$|=@-$/.test(a) || (a === '-' && ['-T', '--upload-file', '-d', '--data', '--data-binary'].includes(r.argv[i - 1] ?? '')) || (/^(?:-d|--data(?:-binary|-raw|-urlencode)?|--json|-F|--form)$/.test(r.argv[i - 1] ?? '') && /@-$/.test(a)));
  if (!readsStdin) return;
  const here = r.cmd.redirects.filter((x) => x.op === '<<<').flatMap((x) => varsOf(x.target.raw));
  const upstream = r.cmd.stage > 0 ? r.pipe.filter((c) => c.pipeline === r.cmd.pipeline && c.stage < r.cmd.stage) : [];
  for (const c of upstream) {
    const w = c.words.map((x) => x.text);
    const n = w[0] ? posix.basename(w[0]) : '';
    if (isHistoryDump(w)) {
      r.analyzer.hit('env-exfiltration', 'deny', r.segment, `sends the shell history (${n}) to ${host || net}`);
      return;
    }
    if (n === 'printenv' && w.slice(1).some((x) => isSecretVar(x, loaded))) {
      leak(w.slice(1).find((x) => isSecretVar(x, loaded))!, 'through a pipe');
      return;
    }
    if (['echo', 'printf', 'print', 'cat', 'base64', 'xxd', 'tr', 'jq'].includes(n)) here.push(...c.words.slice(1).flatMap((x) => varsOf(x.raw)), ...c.redirects.filter((x) => x.op === '<<<').flatMap((x) => varsOf(x.target.raw)));
  }
  const v = here.find((x) => isSecretVar(x, loaded) && !ownService(x, host));
  if (v) leak(v, 'through its input');
};

function sendsToNetwork(r: RuleContext): string | undefined {
  const { name } = innerName(r.words);
  if (!NETWORK_SENDERS.includes(name)) return undefined;
  if (name === 'ssh' || name === 'scp') return name;
  if (name === 'openssl' && !r.argv.includes('s_client')) return undefined;
  return name;
}

/**
 * Secret variables printed into the transcript by name: `printenv AWS_SECRET_ACCESS_KEY`, or the
 * environment filtered for them (`env | grep -i token`). The values go to the model's context (a
 * value piped on into a login that reads it stays allowed). `printenv PATH`, `env | grep -i proxy` stay.
 */
const SECRET_FILTER = /token|secret|passw|api.?key|private|credential|\bkey\b|_key|aws|auth/i;
const secretVarsPrinted: Rule = (r) => {
  const next = r.analyzer.pipeAhead?.[r.cmd.stage + 1];
  if (next?.some((w) => w === '--password-stdin' || w === '--token-stdin' || w === '--with-token' || w === '--password-from-stdin')) return;
  if (r.name === 'printenv') {
    const named = operands(r.argv).find((n) => isSecretVar(n, false));
    if (named) r.analyzer.hit('read-secret-file', 'deny', r.segment, `printenv ${named} prints a secret variable into the transcript`);
    return;
  }
  // After the line loaded an env file (`source .env && echo "$DATABASE_URL"`), a value of it echoed goes to the transcript.
  // A secret variable echoed by name (`echo "$GITHUB_TOKEN"`), or after the line loaded an env file (`source .env && echo "$DATABASE_URL"`).
  if ((r.name === 'echo' || r.name === 'printf') && !/> (?:\$\(|`)/.test(r.via)) {
    const later = r.analyzer.pipeAhead?.slice(r.cmd.stage + 1) ?? [];
    // `${#TOKEN}` (its length) and `${TOKEN:0:10}` (a prefix, to check which one is loaded) print no whole value.
    // Variables inside a substitution (`$([ -n "$TOKEN" ] && echo yes)`) are that command's, judged where it runs.
    const whole = (raw: string | undefined) => varsOf(raw?.replace(/\$\((?:[^()]|\([^()]*\)){0,2000}\)|`[^`]{0,2000}`/g, '').replace(/\$\{#?[A-Za-z_]\w*:\d[^}]*\}|\$\{#[A-Za-z_]\w*\}/g, ''));
    const loaded = r.analyzer.secretsLoaded;
    const named = later.length === 0 && !r.cmd.redirects.some((rd) => rd.op === '>' || rd.op === '>>') ? r.words.slice(1).flatMap((w) => whole(w.raw)).find((n) => isSecretVar(n, loaded)) : undefined;
    if (named) r.analyzer.hit('read-secret-file', 'deny', r.segment, `${r.name} prints ${named}${loaded ? ', loaded from an env file on this line,' : ', a secret variable,'} into the transcript`);
    return;
  }
  if ((r.name === 'grep' || r.name === 'egrep' || r.name === 'rg') && r.cmd.stage > 0) {
    const dump = r.pipe.find((c) => c.stage === r.cmd.stage - 1 && isEnvDump(c.words.map((w) => w.text)));
    const pattern = operands(r.argv, 1, ['-e', '--regexp', '-f', '-m', '-A', '-B', '-C']).concat(r.argv.filter((_, k) => r.argv[k - 1] === '-e' || r.argv[k - 1] === '--regexp'))[0];
    const inverted = r.argv.some((a) => a === '-v' || a === '--invert-match' || /^-[a-zA-Z]*v/.test(a));
    if (dump && pattern !== undefined && !inverted && SECRET_FILTER.test(pattern)) r.analyzer.hit('read-secret-file', 'deny', r.segment, `${dump.words[0].text} | ${r.name} ${pattern} prints the secret variables into the transcript`);
  }
};
secretVarsPrinted.names = ['printenv', 'grep', 'egrep', 'rg', 'echo', 'printf'];

/** Programs that keep only some of what they read: the environment piped into one is not printed whole. */
const ENV_FILTERS = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'awk', 'gawk', 'mawk', 'cut', 'wc', 'jq', 'sed', 'diff', 'comm', 'md5sum', 'sha256sum', 'sha1sum', 'cksum']);

/**
 * The whole environment printed into the transcript (`env`, `printenv`, `export -p`, `declare -x`,
 * `set`): every token in it (GITHUB_TOKEN, AWS keys, the agent's own API key) goes to the model's
 * context, ask (`env-dump`). Filtered (`env | grep PATH`), counted, or written to a file, it is not printed.
 */
const envDump: Rule = (r) => {
  const n = r.name;
  if (n === 'compgen' || JQ_ENV_READERS.includes(n) || !isEnvDump(r.argv) || r.words.some((w) => w.dynamic)) return;
  // Run on another host or in a container (`kubectl exec pod -- env`) it prints that machine's environment: a
  // production pod's database passwords reach the transcript as this machine's tokens would.
  // `printenv HOME PATH` prints only the variables it names (secret names are judged by secretVarsPrinted).
  if (n === 'printenv' && operands(r.argv).length > 0) return;
  // Inside $(...) it fills a variable; the variable sent on is judged where it goes.
  if (/> (?:\$\(|`)/.test(r.via)) return;
  const later = r.analyzer.pipeAhead?.slice(r.cmd.stage + 1) ?? [];
  if (later.some((w) => w[0] !== undefined && ENV_FILTERS.has(posix.basename(w[0])))) return;
  if (later.length && r.analyzer.pipeQuiet) return;
  if (r.cmd.redirects.some((rd) => (rd.op === '>' || rd.op === '>>' || rd.op === '>|' || rd.op === '&>') && (rd.fd === undefined || rd.fd === 1))) return;
  r.analyzer.hit('env-dump', 'ask', r.segment, `${r.argv.slice(0, 2).join(' ')} prints every environment variable, tokens included, into the transcript (filter it: \`env | grep NAME\`)`);
};
envDump.names = ['env', 'printenv', 'export', 'declare', 'typeset', 'set', 'docker', 'podman', 'nerdctl'];

/** The whole environment (every token in it) sent to another host. */
const envExfiltration: Rule = (r) => {
  const net = sendsToNetwork(r);
  if (net && r.cmd.stage > 0) {
    const dumper = r.pipe.find((c) => c.stage < r.cmd.stage && (isEnvDump(c.words.map((w) => w.text)) || isHistoryDump(c.words.map((w) => w.text)) || printsConfig(c.words.map((w) => w.text))));
    if (dumper) r.analyzer.hit('env-exfiltration', 'deny', r.segment, `sends every environment variable (${dumper.words[0].text}) to ${net}`);
  }
  if (net && r.words.some((w) => w.dynamic)) {
    const nested = r.analyzer.currentNested();
    if (nested.some((src) => /^\s*(?:env|printenv|export\s+-p|declare\s+-x|set)\s*(?:$|[|;)])/.test(src))) r.analyzer.hit('env-exfiltration', 'deny', r.segment, `sends every environment variable to ${net} through a substitution`);
  }
  // env > e.txt: the file holds every token; sending it later on the line is sending the environment.
  if ((isEnvDump(r.argv) || isHistoryDump(r.argv) || printsConfig(r.argv)) && !r.words.some((w) => w.dynamic)) {
    for (const rd of r.cmd.redirects) if ((rd.op === '>' || rd.op === '>>' || rd.op === '&>' || rd.op === '>|') && !rd.target.dynamic) r.analyzer.envFiles.add(posix.resolve(r.cwd, rd.target.text));
  }
  if (r.analyzer.envFiles.size && net) {
    // The file as an operand, an option's value (--post-file=F, -T F), or after curl's @ / <.
    const names = r.argv.slice(1).flatMap((a) => [a, a.replace(/^--?[\w-]+=/, ''), a.replace(/^(?:[\w.-]+=)?[@<]/, '')]);
    const sent = names.find((a) => r.analyzer.envFiles.has(posix.resolve(r.cwd, a)));
    if (sent) r.analyzer.hit('env-exfiltration', 'deny', r.segment, `sends ${sent}, which holds every environment variable written earlier on the line, to ${net}`);
  }
  // env > /dev/tcp/host/port
  if (isEnvDump(r.argv) && r.cmd.redirects.some((rd) => /^\/dev\/(?:tcp|udp)\//.test(rd.target.text))) r.analyzer.hit('env-exfiltration', 'deny', r.segment, 'sends every environment variable to a network socket');
  // Files sent through /dev/tcp.
  if (r.cmd.redirects.some((rd) => /^\/dev\/(?:tcp|udp)\//.test(rd.target.text)) && READERS.includes(r.name)) for (const f of operands(r.argv)) readsPath(r.analyzer, f, r.cwd, r.segment);
};

/** Whether a command's words print a secret by the SECRET_PRINTERS table. */
function printsSecretWords(words: string[]): boolean {
  const name = posix.basename(words[0] ?? '');
  const specs = own(SECRET_PRINTERS, name);
  if (!specs) return false;
  const args = words.slice(1);
  const ops = args.filter((a) => !a.startsWith('-'));
  return specs.some((spec) => {
    if (spec.options?.some((o) => args.some((a) => a.length >= 16 && o.startsWith(a.split('=')[0])))) return true;
    if (!spec.sub) return false;
    const at = ops.findIndex((_, i) => spec.sub!.every((w, j) => ops[i + j] === w));
    if (at < 0 || at > 2) return false;
    const key = ops[at + spec.sub.length];
    if (spec.key && (key === undefined || !spec.key.test(key))) return false;
    return !spec.with || args.some((a) => spec.with!.test(a));
  });
}

/**
 * A token printed by a substitution inside a network command's arguments (`git push https://u:$(gh auth token)@host`,
 * `curl -d "$(gh auth token)" ...`): it goes to that host. Its own service may have it (gh's token to github.com).
 */
const printedSecretSent: Rule = (r) => {
  const git = r.name === 'git' && r.argv.some((a) => /^(?:push|fetch|clone|pull|ls-remote|remote)$/.test(a));
  if (!git && !sendsToNetwork(r)) return;
  const host = destination(r.argv.map((a) => a.replace(/\u0000/g, 'x')));
  for (const w of r.words.slice(1)) {
    for (const sub of w.subs ?? []) {
      const words = sub.src.trim().split(/\s+/);
      if (!printsSecretWords(words)) continue;
      const service = posix.basename(words[0]).toUpperCase();
      if (ownService(service === 'GH' ? 'GITHUB_TOKEN' : service === 'GLAB' ? 'GITLAB_TOKEN' : `${service}_TOKEN`, host)) continue;
      r.analyzer.hit('env-exfiltration', 'deny', r.segment, `sends the secret \`${sub.src.trim().slice(0, 60)}\` prints to ${host || r.name}`);
      return;
    }
  }
};
printedSecretSent.names = [...NETWORK_SENDERS, 'git'];

/** A command that prints a private key, a token or a secret access key (tables/secrets.ts SECRET_PRINTERS). */
const printsSecret: Rule = (r) => {
  const specs = own(SECRET_PRINTERS, r.name);
  if (!specs) return;
  // Inside $(...) the secret fills a variable (export AWS_SECRET_ACCESS_KEY=$(aws configure get ...)).
  if (/> (?:\$\(|`)/.test(r.via)) return;
  // Piped straight into a login that reads it as its password (`aws ecr get-login-password | docker login --password-stdin`).
  const next = r.analyzer.pipeAhead?.[r.cmd.stage + 1];
  if (next?.some((w) => w === '--password-stdin' || w === '--token-stdin' || w === '--with-token')) return;
  const args = r.argv.slice(1);
  for (const spec of specs) {
    // gpg reads any unambiguous prefix of a long option (--export-secret-k).
    const hit = spec.options?.find((o) => args.some((a) => a.length >= 16 && o.startsWith(a.split('=')[0])));
    if (hit) {
      r.analyzer.hit('read-secret-file', 'deny', r.segment, `${r.name} ${hit} prints private key material`);
      return;
    }
    if (!spec.sub) continue;
    const ops = args.filter((a) => !a.startsWith('-'));
    const at = ops.findIndex((_, i) => spec.sub!.every((w, j) => ops[i + j] === w));
    if (at < 0 || at > 2) continue;
    const key = ops[at + spec.sub.length];
    if (spec.key && (key === undefined || !spec.key.test(key))) continue;
    if (spec.with && !args.some((a) => spec.with!.test(a))) continue;
    // `-o name`: only the names are printed.
    if (args.some((a, i) => ((a === '-o' || a === '--output') && args[i + 1] === 'name') || a === '-oname' || a === '--output=name')) continue;
    r.analyzer.hit('read-secret-file', 'deny', r.segment, `${r.name} ${spec.sub.join(' ')}${spec.key ? ' ' + key : ''} prints a secret credential`);
    return;
  }
};

/**
 * A secret file handed to a program that sends or publishes it by its own syntax: socat's FILE:/OPEN:
 * addresses, sftp's batch `put` (from -b FILE or stdin), `git add` of a secret (the next push publishes it).
 */
const transfers: Rule = (r) => {
  const a = r.analyzer;
  if (r.name === 'socat') {
    for (const x of r.argv.slice(1)) {
      const m = /^(?:file|open|gopen|readfile):([^,]+)/i.exec(x);
      if (m) readsPath(a, m[1], r.cwd, r.segment);
      // UNIX-LISTEN:path binds a socket there (loom's daemon socket taken over answers its hooks).
      const l = /^(?:unix-listen|unix-l|unix-recvfrom|unix-recv):([^,]+)/i.exec(x);
      if (l) writesPath(a, l[1], r.cwd, r.segment);
    }
    return;
  }
  if (r.name === 'sftp') {
    const b = r.argv.findIndex((x) => x === '-b');
    const batch = b < 0 ? undefined : r.argv[b + 1];
    // Without -b sftp reads its commands from a stdin that is not a terminal (a pipe, a here-string) all the same.
    const feed = batch === undefined || batch === '-' ? r.stdin : r.fileFeed?.(batch);
    if (feed?.kind !== 'static') return;
    for (const line of feed.text.split('\n').slice(0, 200)) {
      const w = line.trim().replace(/^[-@]/, '').split(/\s+/);
      if (!/^(?:put|mput|reput)$/.test(w[0] ?? '')) continue;
      const recursive = w.slice(1).some((x) => /^-[a-zA-Z]*[rR]/.test(x));
      const local = w.slice(1).find((x) => !x.startsWith('-'));
      if (local) (recursive ? carriesFolder : readsPath)(a, local.replace(/^["']|["']$/g, ''), r.cwd, r.segment);
    }
    return;
  }
  // docker cp / kubectl cp LOCAL CONTAINER:PATH: the local files go into a container or a pod, another machine's disk.
  if (r.name !== 'git') {
    const ops = operands(r.argv, 1, ['-c', '--container', '-n', '--namespace', '--context', '--kubeconfig', '--retries', '-H', '--host']);
    const at = ops[0] === 'cp' ? 1 : ops[0] === 'container' && ops[1] === 'cp' ? 2 : -1;
    if (at < 0 || ops.length < at + 2) return;
    const src = ops[at];
    const dst = ops[ops.length - 1];
    if (!/^[^/]*:/.test(src) && /^[\w.-]+(?:\/[\w.-]+)?:/.test(dst)) carriesFolder(a, src, r.cwd, r.segment);
    return;
  }
  if (r.name === 'git') {
    const ops = operands(r.argv);
    const at = ops.indexOf('add');
    if (at < 0 || at > 1) return;
    // `git add .env` stages the secret: the next commit and push publish it.
    for (const f of ops.slice(at + 1)) if (f !== '.' && f !== '-A' && f !== '--all') readsPath(a, f, r.cwd, r.segment);
  }
};
transfers.names = ['socat', 'sftp', 'git', 'docker', 'podman', 'nerdctl', 'kubectl', 'oc'];

/** A request to a cloud metadata service for credentials (`curl http://169.254.169.254/.../security-credentials/ROLE`). */
const metadataCredentials: Rule = (r) => {
  for (const a of r.argv.slice(1)) {
    const m = /^(?:https?:\/\/)?(\[[^\]]+\]|[^/:]+)(?::\d+)?(\/.*)?$/i.exec(a);
    if (!m || !METADATA_HOSTS.includes(m[1].toLowerCase())) continue;
    if (METADATA_SECRET_PATHS.test(m[2] ?? '')) {
      r.analyzer.hit('read-secret-file', 'deny', r.segment, `${r.name} asks the cloud metadata service for this machine's credentials (${m[1]})`);
      return;
    }
  }
};
metadataCredentials.names = ['curl', 'wget', 'wget2', 'http', 'https', 'xh', 'httpie', 'Invoke-WebRequest', 'Invoke-RestMethod', 'iwr', 'irm', 'curlie', 'aria2c', 'lwp-request', 'GET', 'nc', 'ncat', 'python', 'python3'];

/** Programs that read the files named on their stdin (`find ~/.ssh | cpio -o`, `| xargs cat`, `| tar -T -`, `| zip -@`). */
const LIST_READERS = new Set(['cpio', 'pax', 'afio', 'xargs', 'tar', 'bsdtar', 'gtar', 'zip', 'rsync', 'parallel']);
const LISTER = /^\s*(?:find|gfind|fd|fdfind|ls|tree|echo|printf)\b/;
const listedFiles: Rule = (r) => {
  if (!LIST_READERS.has(r.name)) return;
  // A list read from a process substitution (`tar -czf k.tgz -T <(ls ~/.ssh/id_*)`, `rsync --files-from=<(find ~/.aws)`): what it lists.
  const listed = r.words.slice(1).flatMap((w) => w.subs ?? []).filter((x) => LISTER.test(x.src));
  for (const sub of listed.slice(0, 8)) {
    for (const root of sub.src.trim().split(/\s+/).slice(1).filter((x) => !x.startsWith('-') && !/^['"]?%/.test(x)).slice(0, 16)) carriesFolder(r.analyzer, root.replace(/^["']|["']$/g, ''), r.cwd, r.segment);
  }
  if (r.cmd.stage === 0) return;
  if (r.name === 'xargs' || r.name === 'parallel') {
    // Only a program that reads or copies what it is given carries the files on.
    const inner = r.argv.slice(1).find((x, i, all) => !x.startsWith('-') && !/^-[IdaEeLnPsj]$/.test(all[i - 1] ?? ''));
    if (!inner || !(READER_SET.has(posix.basename(inner)) || FOLDER_CARRIERS.includes(posix.basename(inner)) || NETWORK_SENDERS.includes(posix.basename(inner)))) return;
  } else if ((r.name === 'tar' || r.name === 'bsdtar' || r.name === 'gtar') && !r.argv.some((x, i) => /^(?:-T|--files-from)$/.test(x) && (r.argv[i + 1] === '-' || r.argv[i + 1] === '/dev/stdin'))) return;
  else if (r.name === 'zip' && !r.argv.includes('-@')) return;
  else if (r.name === 'rsync' && !r.argv.some((x) => x === '--files-from=-' || x === '--files-from=/dev/stdin')) return;
  for (const c of r.pipe) {
    if (c.stage >= r.cmd.stage || !c.words[0] || !/^(?:find|gfind|fd|fdfind|ls|tree)$/.test(posix.basename(c.words[0].text))) continue;
    for (const root of c.words.slice(1).map((w) => w.text).filter((x) => !x.startsWith('-'))) carriesFolder(r.analyzer, root, r.cwd, r.segment);
  }
};
listedFiles.names = [...LIST_READERS];

printsSecret.names = Object.keys(SECRET_PRINTERS);
readers.names = READERS;
carriers.names = FOLDER_CARRIERS;
uploads.names = Object.keys(UPLOAD_OPTIONS);
publish.names = ['gh'];

/**
 * The whole environment printed after the line loaded an env file (`set -a; . ./.env; env`): every secret
 * of that file lands in the output, as `cat .env` would put it there.
 */
const loadedEnvDump: Rule = (r) => {
  if (!r.analyzer.secretsLoaded) return;
  const args = r.argv.slice(1);
  const dumps =
    ((r.name === 'env' || r.name === 'printenv') && args.every((a) => a.startsWith('-') && !/^-[uSC]|^--(?:unset|split-string|chdir)/.test(a))) ||
    (r.name === 'export' && (args.length === 0 || args.every((a) => a === '-p'))) ||
    ((r.name === 'declare' || r.name === 'typeset') && args.length > 0 && args.every((a) => /^-[pxa-z]*[px][a-z]*$/.test(a))) ||
    (r.name === 'set' && args.length === 0);
  if (dumps) r.analyzer.hit('read-secret-file', 'deny', r.segment, `prints the whole environment after the line loaded an env file: every secret in it goes to the output (\`${r.name}\`)`);
};
loadedEnvDump.names = ['env', 'printenv', 'export', 'declare', 'typeset', 'set'];

/** A folder served over the network (`python3 -m http.server --directory ~/.ssh`, `busybox httpd -h ~/.aws`, `cd ~ && php -S 0.0.0.0:80`). */
const servesFolder: Rule = (r) => {
  const key = /^python[\d.]*$/.test(r.name) ? 'python' : r.name;
  const spec = own(FOLDER_SERVERS, key);
  if (!spec || (spec.when && !spec.when(r.argv))) return;
  let dir: string | undefined;
  for (let k = 1; k < r.argv.length && dir === undefined; k++) {
    const a = r.argv[k];
    if (spec.dirFlags.includes(a)) dir = r.argv[k + 1];
    else if (a.startsWith('--') && a.includes('=') && spec.dirFlags.includes(a.slice(0, a.indexOf('=')))) dir = a.slice(a.indexOf('=') + 1);
  }
  if (dir === undefined && spec.operand) {
    const after = key === 'ruby' ? r.argv.slice(r.argv.indexOf('httpd') + 1) : r.argv.slice(1);
    dir = after.find((x) => !x.startsWith('-') && !/^\d+$/.test(x) && !/^[\w.-]*:\d+$/.test(x));
  }
  carriesFolder(r.analyzer, dir ?? '.', r.cwd, r.segment);
};
servesFolder.names = [...Object.keys(FOLDER_SERVERS), 'python3', 'python2', 'python3.11', 'python3.12', 'python3.13'];

export const SECRET_RULES: Rule[] = [envDump, loadedEnvDump, readers, indirectReads, servesFolder, printsSecret, carriers, transferScripts, uploads, publish, transfers, metadataCredentials, listedFiles, envExfiltration, secretVarsSent, printedSecretSent, secretVarsPrinted];
