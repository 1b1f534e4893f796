// Command-line options that carry a secret, per program, with the way each
// takes its value. Any long option whose name holds a secret (--password,
// --api-key, --client-secret, -storepass) is caught by name for every
// program; the table adds the short and odd ones that only mean "password"
// for one program (mysql -p, zip -P, redis-cli -a, curl -u user:pw).
import { isPlaceholder, isSensitiveName } from './names';
import { shellWords, type Span, type Word } from './text';
import { scan, work } from './work';

/**
 * attached: -pVALUE only (mysql: a bare -p prompts); separate: -p VALUE;
 * either: both. Value forms: whole, after-colon (user:pw), after-percent
 * (user%pw), after-comma (lftp's user,pw), pass-prefix (openssl pass:pw; env:/file:/fd: are references),
 * colon-or-token (user:pw, or a bearer token alone: httpie --auth).
 */
export interface FlagRule {
  flag: string;
  takes: 'attached' | 'separate' | 'either';
  form?: 'whole' | 'after-colon' | 'after-percent' | 'after-comma' | 'pass-prefix' | 'colon-or-token';
}

export interface CliRule {
  programs: string[];
  /** Only under this subcommand (docker login, not docker run -p). */
  sub?: string;
  flags: FlagRule[];
  /** The password is the last plain argument when one of these flags is present (htpasswd -b file user pw). */
  lastArgWith?: RegExp;
  /** With lastArgWith: only when the command has at least this many plain arguments (mc alias set NAME URL KEY SECRET, not mc alias rm NAME); 2 unless given. */
  minArgs?: number;
  /** With lastArgWith: arguments written like this are not the secret, nor counted (net use: the subcommand, a drive, a share, *, /options). */
  lastArgNot?: RegExp;
  /** Plain arguments come as NAME VALUE pairs: a VALUE after a NAME that holds a secret is one (aws configure set, rclone config create). */
  namedPairs?: boolean;
  /** With namedPairs: the first plain word is a subcommand of the program's own (`fly secrets list`), not a name. */
  /** With namedPairs: options whose value is a word of the pairs' kind but no name (nmcli -g FIELDS). */
  valueOptions?: string[];
  commandFirst?: boolean;
  /** With namedPairs: names that hold a secret for this program although they do not say so (rclone's `key`: a B2 application key). */
  pairSecrets?: string[];
  /** A name given by one option, its value by another (`reg add KEY /v ApiKey /d VALUE`): the value when the name names a secret. */
  namedBy?: { name: string; value: string };
}

export const CLI_FLAGS: CliRule[] = [
  { programs: ['reg', 'reg.exe'], sub: 'add', flags: [], namedBy: { name: '/v', value: '/d' } },
  { programs: ['mysql', 'mysqldump', 'mysqladmin', 'mysqlimport', 'mysqlcheck', 'mysqlshow', 'mysqlpump', 'mariadb', 'mariadb-dump', 'mariadb-admin', 'mysqlsh'], flags: [{ flag: '-p', takes: 'attached' }] },
  { programs: ['sshpass'], flags: [{ flag: '-p', takes: 'either' }] },
  // net-snmp: -A the authentication passphrase, -X the privacy passphrase, -c a v1/v2c community (a password too).
  { programs: ['snmpwalk', 'snmpbulkwalk', 'snmpget', 'snmpgetnext', 'snmpbulkget', 'snmpset', 'snmptable', 'snmptrap', 'snmpinform', 'snmpdelta', 'snmpstatus', 'snmpdf', 'snmpnetstat', 'snmptranslate', 'snmpusm', 'snmpvacm'], flags: [{ flag: '-A', takes: 'either' }, { flag: '-X', takes: 'either' }, { flag: '-c', takes: 'either' }] },
  { programs: ['redis-cli', 'valkey-cli', 'keydb-cli'], flags: [{ flag: '-a', takes: 'either' }, { flag: '--pass', takes: 'separate' }, { flag: '--user', takes: 'separate', form: 'after-colon' }] },
  { programs: ['docker', 'podman', 'buildah', 'skopeo', 'nerdctl', 'oras', 'helm', 'crane', 'regctl'], sub: 'login', flags: [{ flag: '-p', takes: 'either' }, { flag: '--password', takes: 'separate' }] },
  { programs: ['oc', 'cf', 'az', 'argocd', 'vault', 'rancher'], sub: 'login', flags: [{ flag: '-p', takes: 'either' }] },
  // gh secret set NAME --body VALUE / -b VALUE: the value stored as the repository's secret.
  { programs: ['gh'], sub: 'secret', flags: [{ flag: '--body', takes: 'separate' }, { flag: '-b', takes: 'either' }] },
  // etcdctl --user root:pw, the same user:password form.
  { programs: ['etcdctl'], flags: [{ flag: '--user', takes: 'either', form: 'after-colon' }] },
  { programs: ['curl', 'http', 'https', 'xh', 'ab', 'siege'], flags: [{ flag: '-u', takes: 'either', form: 'after-colon' }, { flag: '--user', takes: 'separate', form: 'after-colon' }, { flag: '-U', takes: 'either', form: 'after-colon' }, { flag: '--proxy-user', takes: 'separate', form: 'after-colon' }, { flag: '-a', takes: 'separate', form: 'colon-or-token' }, { flag: '--auth', takes: 'either', form: 'colon-or-token' }, { flag: '-A', takes: 'separate', form: 'after-colon' }] },
  { programs: ['wget', 'wget2', 'aria2c'], flags: [{ flag: '-u', takes: 'separate', form: 'after-colon' }, { flag: '--user', takes: 'separate', form: 'after-colon' }] },
  { programs: ['htpasswd'], flags: [], lastArgWith: /^-[a-zA-Z]*b/ },
  { programs: ['7z', '7za', '7zz', '7zr', 'rar', 'unrar'], flags: [{ flag: '-p', takes: 'attached' }] },
  { programs: ['7z.exe', '7za.exe', '7zr.exe', '7zG.exe', 'p7zip'], flags: [{ flag: '-p', takes: 'attached' }] },
  // RAR's -hp encrypts the headers too: -hpSECRET, like -pSECRET (a bare -hp prompts).
  { programs: ['rar', 'unrar', 'winrar', 'WinRAR', 'WinRAR.exe', 'Rar.exe', 'rar.exe', 'UnRAR.exe', 'unrar.exe'], flags: [{ flag: '-hp', takes: 'attached' }] },
  { programs: ['WinRAR', 'WinRAR.exe', 'winrar', 'Rar.exe', 'rar.exe', 'UnRAR.exe', 'unrar.exe'], flags: [{ flag: '-p', takes: 'attached' }] },
  { programs: ['zip', 'unzip', 'zipcloak', 'funzip'], flags: [{ flag: '-P', takes: 'separate' }, { flag: '--password', takes: 'separate' }] },
  // macOS security: `security import cert.p12 -P PASS`, `security unlock-keychain -p PASS`, `security create-keychain -p PASS`.
  { programs: ['security'], sub: 'import', flags: [{ flag: '-P', takes: 'separate' }] },
  { programs: ['security'], sub: 'unlock-keychain', flags: [{ flag: '-p', takes: 'separate' }] },
  { programs: ['security'], sub: 'create-keychain', flags: [{ flag: '-p', takes: 'separate' }] },
  { programs: ['keytool', 'jarsigner', 'apksigner'], flags: ['-storepass', '-keypass', '-srcstorepass', '-deststorepass', '-srckeypass', '-destkeypass', '-new', '--ks-pass', '--key-pass'].map((flag) => ({ flag, takes: 'separate' as const, form: 'pass-prefix' as const })) },
  { programs: ['gpg', 'gpg2'], flags: [{ flag: '--passphrase', takes: 'separate' }] },
  { programs: ['openssl'], flags: [...['-passin', '-passout', '-pass', '-password', '-kpass'].map((flag): FlagRule => ({ flag, takes: 'separate', form: 'pass-prefix' })), { flag: '-k', takes: 'separate' }] },
  { programs: ['mongo', 'mongosh', 'mongodump', 'mongorestore', 'mongoexport', 'mongoimport'], flags: [{ flag: '-p', takes: 'separate' }] },
  { programs: ['ldapsearch', 'ldapmodify', 'ldapadd', 'ldapdelete', 'ldappasswd', 'ldapwhoami'], flags: [{ flag: '-w', takes: 'either' }] },
  { programs: ['smbclient', 'rpcclient', 'smbmap', 'crackmapexec', 'nxc'], flags: [{ flag: '-U', takes: 'either', form: 'after-percent' }, { flag: '--user', takes: 'separate', form: 'after-percent' }, { flag: '-p', takes: 'separate' }] },
  { programs: ['sqlcmd', 'bcp', 'osql', 'isql', 'ipmitool', 'sqlpackage'], flags: [{ flag: '-P', takes: 'either' }] },
  { programs: ['twine'], flags: [{ flag: '-p', takes: 'separate' }] },
  { programs: ['cqlsh'], flags: [{ flag: '-p', takes: 'separate' }, { flag: '--password', takes: 'separate' }] },
  { programs: ['rdesktop'], flags: [{ flag: '-p', takes: 'separate' }] },
  { programs: ['xfreerdp', 'wlfreerdp'], flags: [{ flag: '/p:', takes: 'attached' }] },
  { programs: ['net'], sub: 'use', flags: [{ flag: '/user:', takes: 'attached', form: 'after-colon' }], lastArgWith: /^\/user:/i, minArgs: 1, lastArgNot: /^(?:[A-Za-z]:|\\.*|\*|\/.*|use)$/i },
  { programs: ['rclone'], sub: 'obscure', flags: [], lastArgWith: /^/ },
  // nmcli takes settings as NAME VALUE words: `dev wifi connect SSID password X`, `con modify C wifi-sec.psk X`, `802-1x.password X`.
  { programs: ['nmcli'], flags: [], namedPairs: true, valueOptions: ['-g', '--get-values', '-f', '--fields'], pairSecrets: ['psk', 'wifi-sec.psk', 'wep-key0', 'wifi-sec.wep-key0', 'vpn.secrets', 'pin'] },
  // lftp -u user,password; dotnet nuget add/update source -p PASSWORD; cloudflared service install TOKEN (a tunnel's credentials).
  { programs: ['lftp'], flags: [{ flag: '-u', takes: 'separate', form: 'after-comma' }, { flag: '--user', takes: 'separate', form: 'after-comma' }] },
  { programs: ['dotnet'], sub: 'nuget', flags: [{ flag: '-p', takes: 'separate' }] },
  { programs: ['nuget', 'nuget.exe'], sub: 'sources', flags: [{ flag: '-Password', takes: 'separate' }, { flag: '-p', takes: 'separate' }] },
  { programs: ['cloudflared'], sub: 'service', flags: [], lastArgWith: /^/, minArgs: 3 },
  { programs: ['net'], sub: 'user', flags: [], lastArgWith: /^/, minArgs: 3, lastArgNot: /^(?:\*|\/.*)$/ },
  { programs: ['cmdkey'], flags: [{ flag: '/pass:', takes: 'attached' }] },
  { programs: ['wmic'], flags: [{ flag: '/password:', takes: 'attached' }] },
  { programs: ['schtasks'], flags: [{ flag: '/rp', takes: 'separate' }, { flag: '/p', takes: 'separate' }] },
  { programs: ['wpa_passphrase'], flags: [], lastArgWith: /^/ },
  { programs: ['vault'], sub: 'login', flags: [], lastArgWith: /^/ },
  { programs: ['bw'], sub: 'unlock', flags: [], lastArgWith: /^/ },
  { programs: ['bw'], sub: 'login', flags: [], lastArgWith: /^/, minArgs: 3 },
  { programs: ['ConvertTo-SecureString', 'convertto-securestring'], flags: [{ flag: '-String', takes: 'separate' }], lastArgWith: /^-AsPlainText$/i, minArgs: 1 },
  { programs: ['oathtool'], flags: [], lastArgWith: /^/, minArgs: 1 },
  { programs: ['logdna-agent', 'mezmo-agent'], flags: [{ flag: '-k', takes: 'separate' }, { flag: '--key', takes: 'separate' }] },
  { programs: ['prefect'], sub: 'cloud', flags: [{ flag: '-k', takes: 'separate' }, { flag: '--key', takes: 'separate' }] },
  { programs: ['ngrok'], flags: [], namedPairs: true },
  { programs: ['psexec', 'psexec.exe', 'psexec.py', 'wmiexec.py', 'smbexec.py'], flags: [{ flag: '-p', takes: 'separate' }] },
  { programs: ['aws'], sub: 'configure', flags: [], namedPairs: true },
  { programs: ['git'], sub: 'config', flags: [], namedPairs: true },
  { programs: ['npm', 'pnpm', 'yarn'], sub: 'config', flags: [], namedPairs: true },
  { programs: ['rclone'], sub: 'config', flags: [], namedPairs: true, pairSecrets: ['key', 'pass', 'account_key', 'sas_url', 'service_account_credentials', 'app_key', 'access_key_id'] },
  { programs: ['heroku', 'dokku', 'flyctl', 'fly'], flags: [], namedPairs: true, commandFirst: true },
  { programs: ['ssh-keygen'], flags: [{ flag: '-N', takes: 'separate' }, { flag: '-P', takes: 'separate' }] },
  { programs: ['mosquitto_pub', 'mosquitto_sub', 'mosquitto_rr'], flags: [{ flag: '-P', takes: 'separate' }, { flag: '--pw', takes: 'separate' }] },
  { programs: ['psql', 'pg_dump', 'pg_restore', 'createdb'], flags: [], namedPairs: true },
  // Setting a variable by NAME VALUE words: csh `setenv`, Windows `setx`, launchctl, dotnet user-secrets (fish's set: shell-set.ts).
  { programs: ['setenv', 'setx', 'setx.exe'], flags: [], namedPairs: true },
  { programs: ['launchctl'], sub: 'setenv', flags: [], namedPairs: true },
  { programs: ['dotnet'], sub: 'user-secrets', flags: [], namedPairs: true },
  { programs: ['vncpasswd', 'x11vnc'], flags: [{ flag: '-passwd', takes: 'separate' }] },
  { programs: ['ftp', 'ncftp'], flags: [{ flag: '-p', takes: 'separate' }, { flag: '-u', takes: 'separate', form: 'after-colon' }] },
  { programs: ['rabbitmqctl'], sub: 'add_user', flags: [], lastArgWith: /^/ },
  { programs: ['rabbitmqctl'], sub: 'change_password', flags: [], lastArgWith: /^/ },
  { programs: ['mc', 'mcli'], sub: 'alias', flags: [], lastArgWith: /^/, minArgs: 6 },
  { programs: ['mc', 'mcli'], sub: 'config', flags: [], lastArgWith: /^/, minArgs: 7 },
];

const BY_PROGRAM = new Map<string, CliRule[]>();
for (const r of CLI_FLAGS) for (const p of r.programs) BY_PROGRAM.set(p, [...(BY_PROGRAM.get(p) ?? []), r]);

// A program name as a word of its own: after the start of the text, a path's slash, a quote, a pipe, an `=`
// or any blank, and before a space or tab. Found from each space or tab by reading the word back to its
// delimiter, then one table lookup: a pattern of all the names was tried at every delimiter of the text
// (a fifth of the detectors' time on a megabyte of source code). The same matches, in the same order.
const PROGRAM_DELIMITER = new Uint8Array(128);
for (const c of ' \t\n\r\v\f;&|(`\'"/=') PROGRAM_DELIMITER[c.charCodeAt(0)] = 1;
// The blanks beyond ASCII that \s matches (a name never holds one).
const UNICODE_BLANK = /[\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/;
const isProgramDelimiter = (c: number) => (c < 128 ? PROGRAM_DELIMITER[c] === 1 : UNICODE_BLANK.test(String.fromCharCode(c)));
/** The program names, for the differential test against a pattern of them. */
export const CLI_PROGRAMS = [...BY_PROGRAM.keys()];
const LONGEST_PROGRAM = Math.max(...[...BY_PROGRAM.keys()].map((p) => p.length));
/** Bit n set: some program name of length n starts with this character (ASCII). */
const PROGRAM_LENGTHS = new Float64Array(128);
for (const p of BY_PROGRAM.keys()) {
  const c = p.charCodeAt(0);
  if (c >= 128 || p.length > 52) throw new Error(`cli program ${p}: an ASCII name of at most 52 characters`);
  if (Math.floor(PROGRAM_LENGTHS[c] / 2 ** p.length) % 2 === 0) PROGRAM_LENGTHS[c] += 2 ** p.length;
}

/** The next program name from `from` on: its delimiter's index (or 0 at the start), the name, and where it ends. */
export function nextProgram(text: string, from: number): { index: number; name: string; end: number } | undefined {
  const n = text.length;
  // One pass: ws is where the word being read started (after its delimiter), or -1 inside a word too long to
  // be a name or one that starts with no program's first character.
  let ws = from === 0 ? 0 : isProgramDelimiter(text.charCodeAt(from)) ? from + 1 : -1;
  for (let i = ws === -1 ? from + 1 : ws; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9) {
      const len = i - ws;
      if (ws !== -1 && len > 0 && len <= LONGEST_PROGRAM) {
        const f = text.charCodeAt(ws);
        // Windows' programs by any case (PsExec.exe, NET USE): the table holds them lower-cased.
        const lf = f >= 65 && f <= 90 ? f | 32 : f;
        if (f < 128 && (Math.floor(PROGRAM_LENGTHS[f] / 2 ** len) % 2 === 1 || Math.floor(PROGRAM_LENGTHS[lf] / 2 ** len) % 2 === 1)) {
          const raw = text.slice(ws, i);
          const name = BY_PROGRAM.has(raw) ? raw : raw.toLowerCase();
          if (BY_PROGRAM.has(name)) {
            work.reads += i - from;
            return { index: ws > 0 ? ws - 1 : 0, name, end: i };
          }
        }
      }
      ws = i + 1;
    } else if (c < 128 ? PROGRAM_DELIMITER[c] === 1 : UNICODE_BLANK.test(String.fromCharCode(c))) ws = i + 1;
  }
  work.reads += n - from;
  return undefined;
}

// Any option whose name says secret, for every program: --password x, --api-key=x, -storepass x, --token "a b".
const LONG_FLAG = /(?<![^\s'"(=])(--?)([A-Za-z][A-Za-z0-9_.-]{1,48})(=|[ \t]{1,8})/g;

/** Options whose name says secret but which take no secret value. */
export const NO_VALUE_FLAG = /(?:stdin|file|fd|env|path|dir|prompt|command|cmd|helper|length|len|min|max|policy|type|id|name|url|uri|endpoint|header|count|ttl|expiry|expires|expiration|lifetime|duration|timeout|rotation|reset|required|hash|algorithm|algo|mode|scope|scopes|format)$/i;

// Per-value patterns as module constants (a literal in the function is a new RegExp per value marked).
const NUMERIC_ID = /^\d{1,10}$/;
const PASS_REFERENCE = /^(?:env|file|fd|stdin):/;
const PROSE_WORD = /^(?:via|is|are|was|on|in|with|and|or|to|for|from|the|a|an|as|at|by|of|when|if|flag|option|argument|parameter|instead|directly|only|will|must|should|can|cannot|not)$/i;
const TOKEN_ALONE = /^['"]?(?=[^'"]*\d)(?=[^'"]*[A-Za-z])[\w.~+/=-]{16,512}['"]?$/;
const PASS_PREFIX = /^pass:/;
const PASS_SUFFIX = /pass$/i;
const SPEC_KEY = '(?:id|type|src|source|env|target|dst|destination|required|mode|uid|gid)';
const SECRET_SPEC = new RegExp(`^${SPEC_KEY}=[^,\\s=]{0,256}(?:,${SPEC_KEY}=[^,\\s=]{0,256}){0,8}$`);

function markValue(text: string, w: Word, offset: number, form: FlagRule['form'], spans: Span[], rule: string): void {
  // Work on the source span: quotes around the value stay, what is between them goes.
  let start = w.start + offset;
  let end = w.end;
  let value = w.text.slice(offset);
  const q = text[start];
  if ((q === '"' || q === "'") && text[end - 1] === q && end - start >= 2) {
    start++;
    end--;
  }
  // A value with no colon is a token given alone (httpie --auth-type=bearer --auth=TOKEN), when it looks like one.
  if (form === 'colon-or-token') form = text.slice(start, end).includes(':') || !TOKEN_ALONE.test(value) ? 'after-colon' : 'whole';
  if (form === 'after-colon' || form === 'after-percent' || form === 'after-comma') {
    const sep = form === 'after-colon' ? ':' : form === 'after-percent' ? '%' : ',';
    const at = text.slice(start, end).indexOf(sep);
    if (at === -1) return;
    value = value.slice(value.indexOf(sep) + 1);
    start += at + 1;
    // uid:gid is not a credential.
    if (NUMERIC_ID.test(value)) return;
  } else if (form === 'pass-prefix') {
    if (PASS_REFERENCE.test(value)) return;
    const m = PASS_PREFIX.exec(text.slice(start, end));
    if (m) {
      start += 5;
      value = value.slice(5);
    }
  }
  if (!value || start >= end || isPlaceholder(value)) return;
  // Prose about the option (`Using --password via the CLI is insecure`): a word of the sentence, not a value.
  if (PROSE_WORD.test(value)) return;
  // A mapping given as the value (--set-secrets=DB_PASSWORD=projects/…/secrets/db/versions/latest): its value part decides.
  const pair = NAME_THEN_VALUE.exec(value);
  if (pair) {
    if (isPlaceholder(pair[1])) return;
    const cut = value.length - pair[1].length;
    start += cut;
  }
  spans.push({ start, end, rule });
}
const NAME_THEN_VALUE = /^[A-Z][A-Z0-9_]{1,63}=([^=\s].*)$/s;

function valueAfter(words: Word[], i: number, flag: string, rule: FlagRule): { word: Word; offset: number } | undefined {
  const w = words[i];
  // Windows' own programs read /OPTIONS in any case (schtasks /RP, /rp).
  if (w.text === flag || (flag.startsWith('/') && w.text.toLowerCase() === flag)) {
    if (rule.takes === 'attached') return undefined;
    const next = words[i + 1];
    if (!next || next.text.startsWith('-') && next.text.length > 1 && rule.form !== 'pass-prefix') return undefined;
    return { word: next, offset: 0 };
  }
  // A cluster of short options ending in this one (curl -su user:pw, -sSu): the next word is its value.
  if (rule.takes !== 'attached' && flag.length === 2 && /^-[A-Za-z]{2,6}$/.test(w.text) && w.text.endsWith(flag[1])) {
    const next = words[i + 1];
    if (next && !(next.text.startsWith('-') && next.text.length > 1)) return { word: next, offset: 0 };
  }
  if (rule.takes === 'separate' && !flag.startsWith('--')) return undefined;
  if (flag.startsWith('--') && w.text.startsWith(flag + '=')) return { word: w, offset: quoteOffset(w, flag.length + 1) };
  if (!flag.startsWith('--') && w.text.startsWith(flag) && w.text.length > flag.length && rule.takes !== 'separate') return { word: w, offset: quoteOffset(w, flag.length) };
  return undefined;
}

/** Offset into the word's source for a value after a prefix of its text (-p'x': the prefix is unquoted). */
function quoteOffset(_w: Word, n: number): number {
  return n;
}

// An option at the start of a help line: indentation, an optional short form (`-t, `), the option, then a metavar
// (TEXT, <token>, string) and two blanks, or two blanks at once, before its description.
const HELP_LEAD = /^[ \t]{1,16}(?:-[A-Za-z0-9],?[ \t]{1,3})?$/;
const HELP_REST = /^(?:(?:[A-Z][A-Z0-9_-]{0,23}|<[\w-]{1,24}>|\[[\w-]{1,24}\]|[a-z]{3,8})(?:  |\t| ?$)|[ \t]{1,60}[A-Z][a-z])/;

function isHelpLine(text: string, flagStart: number, valueStart: number): boolean {
  // The line's start, looked for no further back than a help line's indent (a backward search to the
  // previous newline made a one-line megabyte of `--password a` quadratic).
  let ls = flagStart;
  while (ls > 0 && flagStart - ls <= 24 && text[ls - 1] !== '\n') ls--;
  if (flagStart - ls > 24 || (ls > 0 && text[ls - 1] !== '\n') || !HELP_LEAD.test(text.slice(ls, flagStart))) return false;
  // The blanks between the option and what follows count: a value follows one, a description two or more.
  let gap = valueStart;
  while (gap > flagStart && (text[gap - 1] === ' ' || text[gap - 1] === '\t')) gap--;
  const blanks = valueStart - gap;
  const rest = text.slice(valueStart, Math.min(text.length, valueStart + 80)).split('\n')[0];
  if (blanks >= 2) return /^[A-Z][a-z]+(?: [\w(),.'\/-]+){2}/.test(rest) || /^[a-z]{3,}(?: [a-z]{2,}){2}/.test(rest);
  return HELP_REST.test(rest);
}

const AUTH_PAIR_FLAG = /^(?:auth|basic-?auth|http-?auth|auth-?user|credentials?|creds|[a-z]{1,24}[-_](?:creds|credentials?))$/i;
const USER_SECRET_PAIR = /^[^:\s]{1,128}:[^\s]{3,512}$/;

/** Marks secret option values of known programs and of any option named like a secret. */
export function findCliSecrets(text: string, spans: Span[]): void {
  let searchFrom = 0;
  let p: ReturnType<typeof nextProgram>;
  while ((p = nextProgram(text, searchFrom))) {
    searchFrom = p.end;
    const from = p.end;
    const words = shellWords(text, from);
    let rules = BY_PROGRAM.get(p.name) ?? [];
    let firstPlain: string | undefined;
    let plain: Word[] = [];
    let sawLastArgFlag = false;
    const flush = () => {
      for (const r of rules) {
        if (r.lastArgWith && (sawLastArgFlag || r.lastArgWith.source === '^') && (!r.sub || r.sub === firstPlain)) {
          // Arguments like lastArgNot (as written: net use's drive, \\share, /add) are not candidates.
          const candidates = r.lastArgNot ? plain.filter((w) => !r.lastArgNot!.test(text.slice(w.start, w.end))) : plain;
          if (candidates.length >= (r.minArgs ?? 2)) markValue(text, candidates[candidates.length - 1], 0, 'whole', spans, 'cli-argument');
        }
        if (r.namedPairs && (!r.sub || r.sub === firstPlain)) {
          // A subcommand (`aws configure`, `fly secrets list`, `heroku config`) is never a name.
          for (let k = r.sub || r.commandFirst ? 1 : 0; k + 1 < plain.length; k++) {
            // The value of an option that takes one (nmcli -g FIELDS) names what is shown, not a setting.
            const before = r.valueOptions ? words[words.indexOf(plain[k]) - 1]?.text : undefined;
            if (before !== undefined && r.valueOptions!.includes(before)) continue;
            if (plain[k].text.length > 2 && (isSensitiveName(plain[k].text) || r.pairSecrets?.includes(plain[k].text.toLowerCase()))) {
              markValue(text, plain[k + 1], 0, 'whole', spans, 'cli-argument');
              k++;
            }
          }
        }
      }
    };
    for (const r of rules) {
      if (!r.namedBy) continue;
      const at = (flag: string) => words.findIndex((w) => w.text.toLowerCase() === flag);
      const n = at(r.namedBy.name);
      const v = at(r.namedBy.value);
      if (n >= 0 && v >= 0 && words[n + 1] && words[v + 1] && isSensitiveName(words[n + 1].text)) markValue(text, words[v + 1], 0, 'whole', spans, 'cli-flag');
    }
    for (let i = 0; i < words.length; i++) {
      const w = words[i];
      const t = w.text;
      const base = t.slice(t.lastIndexOf('/') + 1);
      // Another known program in the same command line (sudo mysql, sshpass -p x ssh): its rules from here. A path
      // is a program only from a bin folder (/usr/bin/mysql); ./auth/htpasswd is htpasswd's file argument.
      if (i > 0 && BY_PROGRAM.has(base) && !t.startsWith('-') && (!t.includes('/') || /(?:^|\/)s?bin\/[^/]+$/.test(t))) {
        flush();
        rules = BY_PROGRAM.get(base)!;
        firstPlain = undefined;
        plain = [];
        sawLastArgFlag = false;
        continue;
      }
      if (t.startsWith('-') || t.startsWith('/')) {
        let hit = false;
        for (const r of rules) {
          if (r.sub && r.sub !== firstPlain) continue;
          if (r.lastArgWith && r.lastArgWith.test(t) && r.lastArgWith.source !== '^') sawLastArgFlag = true;
          for (const f of r.flags) {
            const v = valueAfter(words, i, f.flag, f);
            if (!v) continue;
            markValue(text, v.word, v.offset, f.form ?? 'whole', spans, 'cli-flag');
            if (v.word !== w) i++;
            hit = true;
            break;
          }
          if (hit) break;
        }
        if (hit || t.startsWith('/')) {
          if (!hit && t.startsWith('/')) plain.push(w);
          continue;
        }
        continue;
      }
      if (firstPlain === undefined) firstPlain = t;
      plain.push(w);
    }
    flush();
    // Continue after this command line: a program word inside it was handled above. From the character before its
    // end, which may be the delimiter before a name.
    const last = words[words.length - 1];
    if (last && last.end > searchFrom) searchFrom = last.end - 1;
  }

  LONG_FLAG.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = scan(LONG_FLAG, text))) {
    const dashes = m[1];
    const name = m[2];
    if (dashes === '-' && name.length < 4) continue;
    // -auth user:token (jenkins-cli), --basic-auth u:p: `auth` alone names no secret, a user:secret pair after it is one.
    if (NO_VALUE_FLAG.test(name) || (!isSensitiveName(name) && !AUTH_PAIR_FLAG.test(name))) continue;
    const at = m.index + m[0].length;
    // --token -x: the next option, not a value (unless given with =).
    if (m[3] !== '=' && text[at] === '-') continue;
    // A help screen's option list (`  --api-key TEXT   API key`, `      --with-token   Read token from stdin`): its metavar or description.
    if (m[3] !== '=' && isHelpLine(text, m.index + (m[0].length - m[0].trimStart().length), at)) continue;
    const words = shellWords(text, at, 4200, 1);
    const w = words[0];
    if (!w || w.start !== at) continue;
    if (!isSensitiveName(name)) {
      if (USER_SECRET_PAIR.test(w.text)) markValue(text, w, 0, 'after-colon', spans, 'cli-flag');
      LONG_FLAG.lastIndex = w.end;
      continue;
    }
    // A mount or secret spec (docker build --secret id=npm,env=NPM_TOKEN, src=FILE): where the secret comes from, not it.
    if (SECRET_SPEC.test(w.text.replace(/^["']|["']$/g, ''))) {
      LONG_FLAG.lastIndex = w.end;
      continue;
    }
    markValue(text, w, 0, PASS_SUFFIX.test(name) && dashes === '-' ? 'pass-prefix' : 'whole', spans, 'cli-flag');
    LONG_FLAG.lastIndex = w.end;
  }
}
