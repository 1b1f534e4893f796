// The tamper family: changing loom's own files (.loom, the pack) or the
// harnesses' hook settings, by any writer: tee, truncate, cp/mv/install/ln
// into them, dd of=, sed -i / perl -pi / ruby -i / gawk -i inplace, ex and
// vim -c, patch, archives extracted into them, chmod (a mode may start with
// a dash: `chmod -w` is a mode, not a flag), and sqlite3 on the ledger with
// anything but a read-only query. Redirects (`>`, `>>`) are judged by the
// analyzer through the same writesPath.
import { posix } from 'node:path';
import { changesTree, copiesTreeInto, destroysFile, isSecretPath, readsPath, under, writesPath, within } from '../path-rules';
import type { Rule, RuleContext } from '../rules';
import { LOOM_PROCESS } from '../tables/devices';
import { LOOM_DIR, LOOM_PACKAGE } from '../tables/paths';
import { operands, own, parseOptions } from './args';

/** Programs that write every file operand. */
export const FILE_WRITERS = ['tee', 'truncate', 'touch', 'chown', 'chgrp', 'chattr', 'setfacl', 'setfattr', 'xattr', 'shred', 'fallocate', 'sponge', 'patch'];
/** Programs that write their last operand (or -t DIR). */
export const COPY_WRITERS = ['cp', 'mv', 'install', 'ln', 'rsync', 'scp', 'ditto', 'gcp', 'gmv', 'link'];
// sed scripts that delete or blank every line: d, 1,$d, s/.*//, s/^.*$//g.
const SED_WIPES = /^(?:(?:1,\$|%)?\s*d|s(.)\^?\.\*\$?\1\1g?)$/;
// Perl -p code that replaces every line by nothing: $_="", $_ = '', undef $_, s/.*//s.
const PERL_WIPES = /^(?:\$_\s*=\s*(?:""|''|q\{\}|undef)|undef\s*\$_|s\/\.\*\/\/[sg]*)\s*;?$/;
// ex commands that delete every line: %d, 1,$d, g/^/d, %delete.
const EX_WIPES = /(?:^|[|:\s])(?:%|1,\$|g\/\^\/)\s*d(?:elete)?\b/;

/** Editors that run commands given on the command line (`vim -c`, `ex`, `ed`, `emacs --batch`). */
export const SCRIPTED_EDITORS: Record<string, string[]> = {
  vim: ['-c', '--cmd', '-s', '-S', '-e', '-E', '-es', '-Es', '+'],
  vi: ['-c', '--cmd', '-s', '-S', '-e', '-E', '-es', '-Es', '+'],
  nvim: ['-c', '--cmd', '-s', '-S', '-e', '-E', '-es', '-Es', '--headless', '+'],
  view: ['-c', '--cmd', '-s', '+'],
  ex: [''],
  ed: [''],
  red: [''],
  emacs: ['--batch', '-batch', '--script', '--eval', '-l', '--load', '-f', '--funcall'],
  nano: [],
};
/**
 * Programs that write a file named by an option (`sort -o F`, `curl -o F`, `wget -O F`) or rewrite their
 * file operands in place (`yq -i`, `json -I -f F`). Per program: its option grammar (which letters and long
 * options take a value), the options whose value is written, and the in-place flags with how many leading
 * operands are not files (yq's expression).
 */
export interface OptionWriter {
  shortWithArg: string;
  longWithArg: string[];
  out: string[];
  inPlace?: string[];
  /** With an in-place flag: leading operands that are an expression, not a file. */
  skip?: number;
  /** With an in-place flag, these options' values are the files rewritten (`json -I -f F`). */
  inPlaceValues?: string[];
}
export const OPTION_WRITERS: Record<string, OptionWriter> = {
  sort: { shortWithArg: 'kotST', longWithArg: ['--output', '--key', '--field-separator', '--temporary-directory', '--buffer-size', '--parallel', '--files0-from'], out: ['-o', '--output'] },
  curl: { shortWithArg: 'AbcCdDeEFHKmoPQrTtuUwxXyYz', longWithArg: ['--output', '--dump-header', '--cookie-jar', '--trace', '--trace-ascii', '--stderr', '--data', '--header', '--user', '--request', '--url', '--form', '--config', '--cookie', '--upload-file', '--user-agent', '--referer', '--max-time', '--proxy', '--write-out', '--etag-save', '--hsts', '--alt-svc'], out: ['-o', '--output', '-D', '--dump-header', '-c', '--cookie-jar', '--trace', '--trace-ascii', '--stderr', '--etag-save', '--hsts', '--alt-svc'] },
  wget: { shortWithArg: 'aAbBDeiIlOoPQRtTUwXY', longWithArg: ['--output-document', '--output-file', '--append-output', '--input-file', '--directory-prefix', '--user', '--password', '--header', '--save-cookies', '--load-cookies', '--tries', '--timeout'], out: ['-O', '--output-document', '-o', '--output-file', '-a', '--append-output', '--save-cookies'] },
  wget2: { shortWithArg: 'aAbBDeiIlOoPQRtTUwXY', longWithArg: ['--output-document', '--output-file', '--append-output'], out: ['-O', '--output-document', '-o', '--output-file', '-a', '--append-output'] },
  aria2c: { shortWithArg: 'dosxjiU', longWithArg: ['--out', '--dir', '--input-file'], out: ['-o', '--out'] },
  http: { shortWithArg: 'ofpahv', longWithArg: ['--output', '--auth', '--session'], out: ['-o', '--output', '--session'] },
  xh: { shortWithArg: 'ofpahv', longWithArg: ['--output', '--auth', '--session'], out: ['-o', '--output', '--session'] },
  iconv: { shortWithArg: 'fto', longWithArg: ['--from-code', '--to-code', '--output'], out: ['-o', '--output'] },
  gpg: { shortWithArg: 'orRuk', longWithArg: ['--output', '--recipient', '--local-user', '--homedir'], out: ['-o', '--output'] },
  yq: { shortWithArg: 'oIpe', longWithArg: ['--output-format', '--input-format', '--indent', '--expression'], out: [], inPlace: ['-i', '--inplace'], skip: 1 },
  json: { shortWithArg: 'fedcaAko', longWithArg: ['--file'], out: [], inPlace: ['-I', '--in-place'], inPlaceValues: ['-f', '--file'] },
  dasel: { shortWithArg: 'frwtvsp', longWithArg: ['--file', '--read', '--write', '--type', '--value', '--selector', '--parser'], out: [], inPlace: ['put', 'delete'], inPlaceValues: ['-f', '--file'] },
  xmlstarlet: { shortWithArg: 'NuivsdrmaNtTg', longWithArg: [], out: [], inPlace: ['-L', '--inplace'], skip: 0 },
};

/** The files an option writer writes (OPTION_WRITERS). */
export function optionWrites(name: string, argv: string[]): string[] {
  const w = own(OPTION_WRITERS, name);
  if (!w) return [];
  const p = parseOptions(argv, 1, { long: [...w.longWithArg, ...(w.inPlace ?? []).filter((x) => x.startsWith('--'))], longWithArg: w.longWithArg, shortWithArg: w.shortWithArg });
  const value = (o: string) => (o.startsWith('--') ? p.long.get(o) : p.short.get(o.slice(1)));
  const out = w.out.map(value).filter((v): v is string => !!v && v !== '-');
  const inPlace = (w.inPlace ?? []).some((o) => (o.startsWith('-') ? value(o) !== undefined : p.operands[0] === o));
  if (inPlace) {
    if (w.inPlaceValues) out.push(...w.inPlaceValues.map(value).filter((v): v is string => !!v));
    else out.push(...p.operands.slice(w.skip ?? 0));
  }
  return out;
}

/** SQL that only reads: a statement starting with one of these words, or a dot-command that only prints... */
export const SQL_READ_START = /^(?:select|with|explain|values|pragma)\b/i;
/** ...and holding none of these (a CTE can end in DELETE; the CLI's writefile() writes files). */
export const SQL_WRITE_WORD = /\b(?:insert|update|delete|replace|drop|alter|create|attach|detach|vacuum|reindex|begin|commit|savepoint|release|rollback|load_extension|writefile|edit|fts3_tokenizer)\b|\bpragma\s+[\w.]+\s*=/i;
export const SQL_SAFE_DOT = /^\.(?:tables|schema|indexes|indices|dump|headers|mode|count|databases|dbinfo|show|width|help|quit|exit|fullschema|stats|print|timer|echo|nullvalue|separator|eqp|changes|bail)\b/i;

/** SQL split on semicolons outside quotes. */
export function splitSql(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote = '';
  for (const c of text) {
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === "'" || c === '"') quote = c;
    else if (c === ';' || c === '\n') {
      if (cur.trim()) out.push(cur.trim());
      cur = '';
      continue;
    }
    cur += c;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

export function sqlOnlyReads(statement: string): boolean {
  if (statement.length > 4000) return false;
  if (statement.startsWith('.')) return SQL_SAFE_DOT.test(statement) && !/[|>]/.test(statement);
  return SQL_READ_START.test(statement) && !SQL_WRITE_WORD.test(statement);
}

function chmodTargets(argv: string[]): { mode: string; files: string[]; recursive: boolean } {
  // A word of mode letters after a dash (-w, -x, -rwx) is a mode; -R -c -f -v are options.
  const rest: string[] = [];
  let mode = '';
  let recursive = false;
  let flags = true;
  for (let k = 1; k < argv.length; k++) {
    const a = argv[k];
    if (flags && a === '--') {
      flags = false;
      continue;
    }
    if (flags && a.startsWith('--')) {
      if (a === '--recursive' || a.startsWith('--rec')) recursive = true;
      if (a === '--reference') k++;
      if (a.startsWith('--reference')) mode = mode || 'reference';
      continue;
    }
    if (flags && /^-[Rcfv]+$/.test(a) && a !== '-') {
      if (a.includes('R')) recursive = true;
      continue;
    }
    if (!mode) mode = a;
    else rest.push(a);
  }
  return { mode, files: rest, recursive };
}

/**
 * A mode that takes nothing away from the owner: only `+` clauses, or an octal mode whose owner digit
 * keeps read and write (and execute, for a hook script).
 */
function onlyGrants(mode: string, script: boolean): boolean {
  if (/^[0-7]{3,4}$/.test(mode)) {
    const owner = parseInt(mode.slice(-3, -2), 8);
    return script ? owner === 7 : (owner & 6) === 6;
  }
  const clauses = mode.split(',');
  return clauses.length > 0 && clauses.every((c) => /^[ugoa]*(?:\+[rwxXst]+)+$/.test(c));
}

/** A mode that lets every user write: an octal mode whose last digit has the write bit, or a clause giving others (o, a) w. */
function writableByOthers(mode: string): boolean {
  if (/^[0-7]{3,4}$/.test(mode)) return (parseInt(mode.slice(-1), 8) & 2) !== 0;
  return mode.split(',').some((c) => /^[ugoa]*[oa][ugoa]*[+=][rwxXst]*w/.test(c));
}

function isLedger(abs: string, r: RuleContext): boolean {
  return within(abs, posix.join(r.opts.projectDir, LOOM_DIR)) || r.opts.protectedPaths.some((p) => within(abs, p)) || /(?:^|\/)ledger\.db(?:-wal|-shm|-journal)?$/.test(abs);
}

const SQLITE_WITH_ARG = ['-cmd', '-init', '-separator', '-newline', '-nullvalue', '-vfs', '-lookaside', '-maxsize', '-mmap', '-pagecache', '-heap', '-escape', '-A', '-zip', '--cmd', '--init', '--separator'];

/** sqlite3 on a ledger: read-only only with -readonly, mode=ro, or SQL that only reads (never -cmd, never stdin). */
/** Files the sqlite3 shell writes by itself: `.output F`, `.once F`, `.save F`, `.backup [DB] F`, `.clone F`, `VACUUM INTO 'F'`. */
const SQLITE_FILE_WRITES = [/(?:^|[\n;])[ \t]*\.(?:output|once|save|clone)[ \t]+(?:-[a-z]+[ \t]+)*(['"]?)([^'"\s;]{1,1000})\1/g, /(?:^|[\n;])[ \t]*\.backup[ \t]+(?:(?:-[a-z]+|\w+)[ \t]+)?(['"]?)([^'"\s;]{1,1000})\1[ \t]*(?:$|[\n;])/g, /\bvacuum\b[^;]{0,80}?\binto[ \t]+(['"])([^'"]{1,1000})\1/gi];

function sqlite(r: RuleContext): void {
  const args = r.argv.slice(1);
  // The files its dot-commands and VACUUM INTO write (the ledger overwritten from :memory:): judged as writes.
  const scripts = args.filter((a, k) => k === 0 || !a.startsWith('-') || ['-cmd', '--cmd'].includes(args[k - 1] ?? '')).concat(args.filter((_, k) => ['-cmd', '--cmd'].includes(args[k - 1] ?? '')));
  for (const text of new Set(scripts)) {
    for (const re of SQLITE_FILE_WRITES) {
      re.lastIndex = 0;
      for (const m of text.matchAll(re)) if (m[2] && m[2] !== 'stdout' && m[2] !== '-') writesPath(r.analyzer, m[2], r.cwd, r.segment);
    }
  }
  let db: string | undefined;
  const sql: string[] = [];
  let readonly = false;
  let cmd = false;
  for (let k = 0; k < args.length; k++) {
    const a = args[k];
    if (a === '-readonly' || a === '--readonly' || a === '-safe' || a === '--safe') readonly = readonly || a.includes('readonly');
    if (a === '-cmd' || a === '--cmd' || a === '-init' || a === '--init' || a === '-A' || a === '-zip') cmd = true;
    if (SQLITE_WITH_ARG.includes(a)) {
      k++;
      continue;
    }
    if (a.startsWith('-')) continue;
    if (db === undefined) db = a;
    else sql.push(a);
  }
  if (!db) return;
  const toAbs = (d: string) => {
    const path = d.replace(/^file:/, '').replace(/\?.*$/, '');
    return posix.resolve(r.cwd, path.startsWith('~') ? r.opts.home + path.slice(1) : path);
  };
  // ATTACH 'ledger.db' AS l from any database (:memory:, a scratch file) reaches the ledger as well.
  const attached = [...sql.join(';').matchAll(/\battach\s+(?:database\s+)?(['"])([^'"]{1,1000})\1/gi)].map((m) => m[2]).find((d) => isLedger(toAbs(d), r));
  if (attached !== undefined) {
    const writes = splitSql(sql.join(';')).some((st) => !/^attach\b/i.test(st) && !sqlOnlyReads(st));
    if (writes || cmd) r.analyzer.hit('modify-loom', 'deny', r.segment, `sqlite3 attaches loom's ledger (${attached}) and changes it: only SELECT queries are allowed`);
    return;
  }
  const abs = toAbs(db);
  if (!isLedger(abs, r)) return;
  if (/[?&]mode=ro\b|[?&]immutable=1\b/.test(db)) readonly = true;
  const statements = splitSql(sql.join(';'));
  const onlyReads = statements.length > 0 && statements.every(sqlOnlyReads);
  if (cmd || !(readonly || onlyReads) || (sql.length === 0 && !readonly)) r.analyzer.hit('modify-loom', 'deny', r.segment, `sqlite3 on loom's ledger (${db}) with ${cmd ? '-cmd/-init' : sql.length ? 'SQL that writes' : 'a script from its input'}: only -readonly or SELECT queries are allowed`);
}

/** sqlite-utils subcommands that only read; any other one on the ledger changes it (drop-table, insert, transform, vacuum ...). */
const SQLITE_UTILS_READS = new Set(['tables', 'views', 'rows', 'schema', 'indexes', 'triggers', 'search', 'dump', 'analyze-tables', 'query', 'memory', 'plugins', '--help', '--version']);
/** Other SQLite clients: `litecli DB -e SQL`, `sqlean DB SQL`. */
const SQLITE_CLIENTS = ['litecli', 'sqlean', 'sqlite-utils', 'sqlitebrowser', 'sqlite3_analyzer'];

function sqliteClient(r: RuleContext): void {
  const ops = operands(r.argv, 1, ['-e', '--execute', '--param', '-p', '--load-extension']);
  const ledger = ops.find((o) => isLedger(posix.resolve(r.cwd, o.startsWith('~') ? r.opts.home + o.slice(1) : o), r));
  if (!ledger) return;
  const sql: string[] = [];
  for (let k = 1; k < r.argv.length; k++) if (r.argv[k] === '-e' || r.argv[k] === '--execute') sql.push(r.argv[k + 1] ?? '');
  if (r.name === 'sqlite-utils') {
    const sub = ops[0] ?? '';
    if (sub === 'query') sql.push(...ops.slice(2));
    else if (SQLITE_UTILS_READS.has(sub) || ops[0] === ledger) return;
    else return void r.analyzer.hit('modify-loom', 'deny', r.segment, `sqlite-utils ${sub} changes loom's ledger (${ledger})`);
  }
  if (r.name === 'sqlean') sql.push(...ops.slice(ops.indexOf(ledger) + 1));
  const statements = splitSql(sql.join(';'));
  if (statements.length === 0 && r.name !== 'sqlite-utils') r.analyzer.hit('modify-loom', 'deny', r.segment, `${r.name} opens loom's ledger (${ledger}) for any statement: only read-only SELECT queries are allowed`);
  else if (!statements.every(sqlOnlyReads)) r.analyzer.hit('modify-loom', 'deny', r.segment, `${r.name} runs SQL that changes loom's ledger (${ledger})`);
}

/** sed commands that name a file, up to the end of the line as sed reads them: after an address or a separator, and the s///w flag. */
const SED_FILE_COMMANDS = /(?:^|[\n;{}!]|[0-9$\/][ \t]*)[ \t]*([wWrR])[ \t]+([^\n]{1,1000})|s(?<d>[^\\\n])(?:[^\\\n]|\\.){0,1000}?\k<d>(?:[^\\\n]|\\.){0,1000}?\k<d>[gpiIme0-9]{0,8}(w)[ \t]+([^\n]{1,1000})/g;

const writers: Rule = (r) => {
  const { name, argv, cwd, segment, analyzer: a } = r;
  if (name === 'sqlite3' || name === 'sqlite') {
    sqlite(r);
    return;
  }
  if (SQLITE_CLIENTS.includes(name)) {
    sqliteClient(r);
    return;
  }
  if (name === 'chmod') {
    const t = chmodTargets(argv);
    // Read opened to others on keys or a credentials folder (`chmod -R a+rX ~/.ssh`, `chmod 644 ~/.aws/credentials`): exposed to every user.
    if (/^[ugoa]*[ao][ugoa]*\+[rwxXst]*r|^[ugoa]*g[ugoa]*\+[rwxXst]*r|^\+r|^[0-7]*[4-7]$/.test(t.mode)) {
      for (const f of t.files) {
        const abs = posix.resolve(cwd, f.replace(/^~(?=\/|$)/, a.opts.home));
        // A folder counts with -R (its files get the mode); a file when it is a secret (a .pub key is not).
        const folder = t.recursive && under(a.opts.home).credentialFolders.some((c) => within(abs, c) || within(c, abs));
        if (!within(abs, a.opts.projectDir) && within(abs, a.opts.home) && (folder || isSecretPath(abs, a))) {
          a.hit('read-secret-file', 'deny', segment, `chmod ${t.mode} opens ${f} to other users: the keys in it can be read by anyone on the machine`);
          break;
        }
      }
    }
    for (const f of t.files) {
      // Making a hook script executable (chmod +x, 755) keeps it working; taking a permission away switches it off.
      // Write opened to every user (777, o+w, a=rwx) is a grant too, but then anyone on the machine can change the file.
      if (onlyGrants(t.mode, /(?:^|\/)hooks(?:\/|$)/.test(f)) && !writableByOthers(t.mode)) continue;
      writesPath(a, f, cwd, segment);
      if (t.recursive) changesTree(a, f, cwd, segment);
    }
    return;
  }
  for (const f of optionWrites(name, argv)) writesPath(a, f, cwd, segment);
  if (FILE_WRITERS.includes(name)) {
    const files = name === 'chown' || name === 'chgrp' || name === 'setfacl' || name === 'chattr' ? operands(argv).slice(1) : name === 'truncate' ? operands(argv, 1, ['-s', '--size', '-r', '--reference']) : name === 'patch' ? operands(argv, 1, ['-i', '--input', '-p', '-o', '--output', '-d', '--directory', '-B', '-r', '-D', '-F', '-z', '-Y', '-V']).slice(0, 1) : operands(argv, 1, ['-l', '-o', '-n', '-s', '-r']);
    const append = name === 'tee' && argv.slice(1).some((x) => x === '--append' || /^-[a-zA-Z]*a/.test(x));
    for (const f of files) writesPath(a, f, cwd, segment, { append });
    if (name === 'chattr' && (argv[1] ?? '').startsWith('-')) for (const f of operands(argv, 2)) writesPath(a, f, cwd, segment);
    return;
  }
  if (COPY_WRITERS.includes(name)) {
    const p = parseOptions(argv, 1, { long: ['--target-directory', '--suffix', '--backup', '--mode', '--owner', '--group', '--exclude', '--include', '--filter', '--rsh', '--chmod'], longWithArg: ['--target-directory', '--suffix', '--mode', '--owner', '--group', '--exclude', '--include', '--filter', '--rsh', '--chmod'], shortWithArg: name === 'install' ? 'tSmogb' : name === 'rsync' ? 'efT' : name === 'scp' ? 'iFPlocSJ' : 'tS' });
    const target = p.short.get('t') ?? p.long.get('--target-directory');
    const ops = p.operands;
    const dest = target ?? ops[ops.length - 1];
    const sources = target ? ops : ops.slice(0, -1);
    if (dest && !(/^[^/]*:/.test(dest) && !dest.startsWith('./'))) {
      writesPath(a, dest, cwd, segment);
      // cp x .claude/ writes .claude/x
      if (dest.endsWith('/') || target) for (const s of sources) writesPath(a, posix.join(dest, posix.basename(s)), cwd, segment);
    }
    if (name === 'mv' || name === 'gmv') for (const s of sources) writesPath(a, s, cwd, segment, { movedAway: true });
    // A tree copied in: into a protected folder, or a protected folder's namesake copied over it.
    const recursive = name === 'rsync' || name === 'ditto' || p.short.has('r') || p.short.has('R') || p.short.has('a') || p.long.has('--recursive') || p.long.has('--archive');
    if (recursive && dest && !/^[^/]*:/.test(dest)) {
      copiesTreeInto(a, dest, cwd, segment);
      for (const s of sources) copiesTreeInto(a, posix.join(dest, posix.basename(s.replace(/\/+$/, ''))), cwd, segment);
    }
    return;
  }
  if (name === 'dd') {
    const of = argv.find((x) => x.startsWith('of='));
    if (of) writesPath(a, of.slice(3), cwd, segment);
    return;
  }
  // In-place editors: sed -i, perl -pi, ruby -i, gawk -i inplace.
  if (name === 'sed' || name === 'gsed') {
    // The script's own file commands: `w F` / `W F` (and the s///w flag) write F, `r F` / `R F` read it into the output.
    const scriptGiven0 = argv.some((x) => x === '-e' || x.startsWith('--expression') || /^-[nrEsuzl]*e$/.test(x));
    const scripts = scriptGiven0 ? argv.filter((_, i) => i > 0 && (argv[i - 1] === '-e' || argv[i - 1] === '--expression' || /^-[nrEsuzl]*e$/.test(argv[i - 1]))) : operands(argv, 1, ['-f', '--file', '-l']).slice(0, 1);
    for (const script of scripts) {
      for (const m of script.matchAll(SED_FILE_COMMANDS)) {
        const letter = m[1] ?? m[4];
        const file = (m[2] ?? m[5] ?? '').trim();
        if (!file || file === '/dev/stdout' || file === '/dev/stderr') continue;
        if (letter === 'r' || letter === 'R') readsPath(a, file, cwd, segment);
        else writesPath(a, file, cwd, segment);
      }
    }
    const inPlace = argv.some((x) => /^-[nrEsuzl]*i/.test(x) || x.startsWith('--in-place'));
    if (!inPlace) return;
    const scriptGiven = argv.some((x) => x === '-e' || x === '-f' || x.startsWith('--expression') || x.startsWith('--file') || /^-[nrEsuzl]*[ef]$/.test(x));
    const ops = operands(argv, 1, ['-e', '-f', '--expression', '--file', '-l']);
    const files = scriptGiven ? ops : ops.slice(1);
    for (const f of files) writesPath(a, f, cwd, segment);
    // `sed -i d F`, `sed -i 's/.*//' F`, `sed -i '1,$d' F`: every line deleted or blanked, the file's content is gone.
    if (scripts.length === 1 && SED_WIPES.test(scripts[0].trim())) for (const f of files) destroysFile(a, f, cwd, segment, { verb: `sed ${scripts[0].trim()} empties`, home: true });
    return;
  }
  if (name === 'perl' || name === 'ruby') {
    const inPlace = argv.some((x) => /^-[a-zA-Z0-9]*i/.test(x) && !x.startsWith('-I'));
    if (!inPlace) return;
    const codeGiven = argv.some((x) => /^-[a-zA-Z0-9]*[eE]/.test(x) && !x.startsWith('-i'));
    const ops = operands(argv, 1, ['-e', '-E', '-I', '-M', '-m', '-r']);
    const files = codeGiven ? ops : ops.slice(1);
    for (const f of files) writesPath(a, f, cwd, segment);
    // `perl -pi -e '$_=""'`, `perl -ni -e ''`: every line replaced by nothing.
    const code = argv.find((x, i) => i > 0 && /^-[a-zA-Z0-9]*[eE]$/.test(argv[i - 1] ?? ''));
    if (code !== undefined && (PERL_WIPES.test(code.trim()) || (code.trim() === '' && argv.some((x) => /^-[a-zA-Z0-9]*n/.test(x))))) for (const f of files) destroysFile(a, f, cwd, segment, { verb: `${name} -i ${JSON.stringify(code)} empties`, home: true });
    return;
  }
  if ((name === 'gawk' || name === 'awk') && argv.some((x, i) => (x === '-i' || x === '--include') && argv[i + 1] === 'inplace')) {
    for (const f of operands(argv, 1, ['-i', '--include', '-f', '-v', '-F']).slice(1)) writesPath(a, f, cwd, segment);
    return;
  }
  const editor = own(SCRIPTED_EDITORS, name);
  if (editor) {
    const scripted = editor.includes('') || argv.some((x) => editor.includes(x) || (editor.includes('+') && x.startsWith('+')) || editor.some((e) => e.startsWith('--') && x.startsWith(e + '=')));
    if (!scripted) return;
    const withValue = editor.includes('') ? ['-p'] : ['-c', '--cmd', '-s', '-S', '-l', '--load', '-f', '--funcall', '--eval', '-u', '-i', '-T', '-w', '-W'];
    const ops = operands(argv, 1, withValue).filter((x) => !x.startsWith('+'));
    for (const f of ops) writesPath(a, f, cwd, segment);
    // `ex -sc '%d|x' F`, `vim -c ':1,$d' -c wq F`: every line deleted, then written.
    const cmds = argv.filter((x, i) => x.startsWith('+') || (i > 0 && ['-c', '--cmd', '-sc', '-es'].includes(argv[i - 1] ?? ''))).join('|');
    if (EX_WIPES.test(cmds)) for (const f of ops) destroysFile(a, f, cwd, segment, { verb: `${name} deletes every line of`, home: true });
    return;
  }
  // Archives extracted into a folder: tar -C DIR -x, unzip -d DIR, and their members.
  if (name === 'tar' || name === 'bsdtar' || name === 'gtar') {
    const extracting = argv.some((x, i) => x === '-x' || x === '--extract' || x === '--get' || (i === 1 && /^-?[A-Za-z]*x/.test(x) && !x.startsWith('--')) || (/^-[A-Za-z]*x[A-Za-z]*$/.test(x)));
    const dirIdx = argv.findIndex((x) => x === '-C' || x === '--directory');
    const dirEq = argv.find((x) => x.startsWith('--directory='));
    const dir = dirIdx > 0 ? argv[dirIdx + 1] : dirEq ? dirEq.slice(12) : undefined;
    if (extracting && dir) writesPath(a, posix.join(dir, 'x'), cwd, segment);
    return;
  }
  if (name === 'unzip' || name === '7z' || name === 'bsdtar') {
    const d = argv.findIndex((x) => x === '-d');
    const o = argv.find((x) => x.startsWith('-o') && name === '7z');
    if (d > 0 && argv[d + 1]) writesPath(a, posix.join(argv[d + 1], 'x'), cwd, segment);
    // unzip ARCHIVE 'MEMBER' ...: the members named are written under the folder it extracts to (.loom/* over loom's files).
    if (name === 'unzip') {
      const ops = operands(argv, 1, ['-d', '-x', '-P', '-I', '-O']);
      for (const m of ops.slice(1, 17)) writesPath(a, posix.join(d > 0 && argv[d + 1] ? argv[d + 1] : '.', m), cwd, segment);
    }
    if (o && o.length > 2) writesPath(a, posix.join(o.slice(2), 'x'), cwd, segment);
  }
};

writers.names = [...Object.keys(OPTION_WRITERS), ...SQLITE_CLIENTS, 'sqlite3', 'sqlite', 'chmod', ...FILE_WRITERS, ...COPY_WRITERS, 'dd', 'sed', 'gsed', 'perl', 'ruby', 'gawk', 'awk', ...Object.keys(SCRIPTED_EDITORS), 'tar', 'bsdtar', 'gtar', 'unzip', '7z'];

/** Package-manager subcommands that take a package out of the project. */
const REMOVE_SUBCOMMANDS = new Set(['uninstall', 'remove', 'rm', 'un', 'r', 'unlink', 'erase']);
const PACKAGE_MANAGERS = ['npm', 'pnpm', 'yarn', 'bun', 'cnpm', 'ni', 'nun'];

/** `npm uninstall loom-governance`, `pnpm remove loom-governance`: the guard itself uninstalled. */
const uninstallsLoom: Rule = (r) => {
  const args = r.argv.slice(1);
  const sub = args.findIndex((x) => !x.startsWith('-'));
  // `npm pkg delete devDependencies.loom-governance` / `npm pkg set devDependencies.loom-governance=`: the same, in package.json.
  if (args[sub] === 'pkg' && ['delete', 'set', 'rm'].includes(args[sub + 1] ?? '') && args.slice(sub + 2).some((x) => x.includes(LOOM_PACKAGE))) {
    r.analyzer.hit('modify-loom', 'deny', r.segment, `${r.name} pkg ${args[sub + 1]} takes loom itself out of package.json: the agent may not switch off its guard`);
    return;
  }
  // `npm install -D loom-governance@file:/tmp/stub`: loom replaced by a package from somewhere else (a folder, a tarball, a git URL).
  if (['install', 'i', 'add', 'in'].includes(args[sub] ?? '') && args.slice(sub + 1).some((x) => x.startsWith(LOOM_PACKAGE + '@') && /^(?:file:|link:|git\+?|https?:|github:|npm:|\.{0,2}\/)/.test(x.slice(LOOM_PACKAGE.length + 1)))) {
    r.analyzer.hit('modify-loom', 'deny', r.segment, `${r.name} ${args[sub]} replaces loom with a package from another source: the agent may not switch off its guard`);
    return;
  }
  if (sub < 0 || !(REMOVE_SUBCOMMANDS.has(args[sub]) || r.name === 'nun')) return;
  const pkgs = args.slice(r.name === 'nun' ? 0 : sub + 1).filter((x) => !x.startsWith('-'));
  if (pkgs.some((p) => p === LOOM_PACKAGE || p.replace(/@[^@/]*$/, '') === LOOM_PACKAGE || p.endsWith('/' + LOOM_PACKAGE))) r.analyzer.hit('modify-loom', 'deny', r.segment, `${r.name} ${args[sub]} takes loom itself out of the project: the agent may not switch off its guard`);
};
uninstallsLoom.names = PACKAGE_MANAGERS;

/** Stopping loom's own processes (its server or daemon): `pkill -f loom`, `kill $(pgrep -f loom)`. */
const stopsLoom: Rule = (r) => {
  if (r.name === 'pkill' || r.name === 'killall') {
    if (operands(r.argv, 1, ['-u', '-U', '-g', '-G', '-s', '-t', '-P', '--signal', '-F']).some((p) => LOOM_PROCESS.test(` ${p} `))) r.analyzer.hit('modify-loom', 'deny', r.segment, `${r.name} stops loom's own processes: the agent may not switch off its guard`);
    return;
  }
  const sub = r.words.slice(1).flatMap((w) => w.subs ?? []).find((x) => (/\b(?:pgrep|pidof|ps)\b/.test(x.src) && LOOM_PROCESS.test(` ${x.src} `)) || /(?:^|[\s/])\.loom\/\S*pid\b|loom[\w.-]*\.pid\b/.test(x.src));
  if (sub) r.analyzer.hit('modify-loom', 'deny', r.segment, `kill of the processes \`${sub.src.trim().slice(0, 60)}\` finds, loom's own among them: the agent may not switch off its guard`);
  // Pids piped in (`ps aux | grep loom | awk '{print $2}' | xargs kill`): a stage that finds loom's processes feeds the kill.
  else if (/> xargs/.test(r.via)) {
    const finder = r.analyzer.pipeAhead?.find((w) => /^(?:pgrep|pidof|ps|grep|egrep|rg|lsof|fuser)$/.test(w[0] ?? '') && LOOM_PROCESS.test(` ${w.slice(1).join(' ')} `));
    if (finder) r.analyzer.hit('modify-loom', 'deny', r.segment, `kill of the processes \`${finder.join(' ').slice(0, 60)}\` finds, loom's own among them: the agent may not switch off its guard`);
  }
};
stopsLoom.names = ['kill', 'pkill', 'killall'];

/** A service manager stopping or disabling loom's own unit (`systemctl --user stop loom-governance.service`, `launchctl bootout … loom`). */
const SERVICE_STOPS: Record<string, RegExp> = { systemctl: /^(?:stop|kill|disable|mask|freeze)$/, service: /^(?:stop)$/, launchctl: /^(?:unload|bootout|stop|remove|disable)$/, 'sv': /^(?:down|stop|kill)$/, rc: /^(?:stop)$/ };
const stopsLoomService: Rule = (r) => {
  const verb = own(SERVICE_STOPS, r.name);
  if (!verb) return;
  const ops = operands(r.argv, 1, ['-H', '--host', '-M', '--machine', '-t', '--type', '-p', '--property', '-s', '--signal', '--kill-whom']);
  const at = r.name === 'service' ? 1 : ops.findIndex((o) => verb.test(o));
  if (at < 0 || (r.name === 'service' && !verb.test(ops[1] ?? ''))) return;
  const units = r.name === 'service' ? [ops[0] ?? ''] : ops.slice(at + 1);
  const unit = units.find((u) => LOOM_PROCESS.test(` ${u} `));
  if (unit) r.analyzer.hit('modify-loom', 'deny', r.segment, `${r.name} stops loom's own service (${unit}): the agent may not switch off its guard`);
};
stopsLoomService.names = Object.keys(SERVICE_STOPS);

/** loom's CLI run by its script (`node node_modules/loom-governance/bin/loom.js erase …`, `node_modules/.bin/loom`). */
const SCRIPT_OF_LOOM = /(?:^|\/)(?:loom-governance\/bin\/loom\.js|bin\/loom\.js|\.bin\/loom)$/;

/**
 * loom's own commands an agent may not run: those that switch it off (`loom daemon stop`, then any program may bind
 * its socket; `loom install --remove`, `uninstall`) and those that change the evidence (`erase` blanks recorded
 * values, `recover` sets the database aside). Setting it up (init, install: they add hooks), reading (verify,
 * history, report, evidence, explain) and folding stay everyday.
 */
const loomSwitchedOff: Rule = (r) => {
  const argv = r.name === 'node' ? (SCRIPT_OF_LOOM.test(r.argv[1] ?? '') ? r.argv.slice(1) : undefined) : r.argv;
  if (!argv) return;
  const ops = operands(argv, 1, ['--harness', '--scope', '--project-dir', '--mode', '--url', '--socket', '--seq', '--path', '--match', '--reason']);
  if (ops[0] === 'daemon' && ops[1] === 'stop') r.analyzer.hit('modify-loom', 'deny', r.segment, "loom daemon stop switches off loom's daemon: the agent may not switch off its guard");
  else if ((ops[0] === 'install' && argv.includes('--remove')) || ops[0] === 'uninstall') r.analyzer.hit('modify-hook-settings', 'deny', r.segment, "removes loom's hooks from the harness settings: the agent may not switch off its guard");
  else if ((ops[0] === 'erase' || ops[0] === 'recover') && !argv.includes('--help') && !argv.includes('--dry-run')) r.analyzer.hit('modify-loom', 'deny', r.segment, `loom ${ops[0]} changes the ledger's evidence (${ops[0] === 'erase' ? 'blanks recorded values' : 'sets the database aside'}): a reviewer runs it, not the agent`);
};
loomSwitchedOff.names = ['loom', LOOM_PACKAGE, 'node'];

export const TAMPER_RULES: Rule[] = [writers, uninstallsLoom, stopsLoom, stopsLoomService, loomSwitchedOff];
export { chmodTargets };
