// Secrets found by the file format or the program output they stand in:
// XML elements, EDN/Ruby/PHP maps, subscripted and define() assignments,
// defaults of environment reads, libpq and Oracle connect strings, svn auth
// files, Netscape cookies.txt, Kubernetes Secret data, commands that print a
// secret, echo piped into a password prompt, argument lists, Terraform plan
// changes and variable defaults, maps of tokens, HMAC keys in code, pgbouncer
// and chap-secrets files. Each detector is gated by a literal its pattern
// holds, uses bounded repetition only, and every scan moves forward.
import { NO_VALUE_FLAG } from './cli-flags';
import { CLIENT } from './protocol-logs';
import { SECRET_COOKIE } from './headers';
import { isFilePath, isMessageAbout, isNotSecretName, isPlaceholder, isSensitiveAssignment, isSensitiveName } from './names';
import { scanLines } from './anchored';
import { readValue, type Span } from './text';
import { scan, work } from './work';

function push(spans: Span[], start: number, value: string, rule: string): void {
  if (!value || isPlaceholder(value)) return;
  spans.push({ start, end: start + value.length, rule });
}

/** The last word of a qualified name: ns:Password -> Password. */
const local = (n: string) => n.slice(n.lastIndexOf(':') + 1);

// <password>x</password>, <Pass encoding="base64">x</Pass>, <keystorePass>x</keystorePass>.
const XML_ELEMENT = /<([A-Za-z][\w.:-]{0,63})((?:[ \t][^<>\n]{0,200})?)>(?:<!\[CDATA\[)?([^<>\n]{1,1024}?)(?:\]\]>)?<\/\1>/g;
// EDN/Clojure :password "x"; Ruby :password => "x"; PHP 'password' => 'x'.
const EDN_PAIR = /:([A-Za-z][\w.*+!?-]{0,63})[ \t]{1,8}"((?:[^"\\\n]|\\.){1,1024})"/g;
const ARROW_PAIR = /(?:(["'])([A-Za-z_][\w.-]{0,63})\1|:([A-Za-z_]\w{0,63}))[ \t]{0,3}=>[ \t]{0,3}/g;
// $cfg['password'] = 'x'; app.config['SECRET_KEY'] = 'x'; settings["token"] := "x".
// $cfg['password'] = …, and unquoted keys: php-fpm's env[DB_PASSWORD] = …, php_admin_value[mail.password] = ….
const SUBSCRIPT = /\[[ \t]{0,2}(?:(["'])([A-Za-z_][\w.:-]{0,63})\1|([A-Za-z_][\w.:-]{0,63}))[ \t]{0,2}\][ \t]{0,3}(?::=|=(?![=>]))[ \t]{0,3}/g;
// define('DB_PASSWORD', 'x'); os.environ.get("SECRET_KEY", "default"); ENV.fetch("TOKEN", "x").
// Any call whose first argument names a secret and whose second is its value: define('AUTH_KEY', 'x'),
// headers.Add("X-Api-Key", "x"), setHeader('Authorization', 'Bearer x'), put("password", "x").
const NAMED_CALL = /\b(?:[A-Za-z_$][\w$]{0,40})\([ \t]{0,3}(["'])([A-Za-z_][\w.-]{0,63})\1[ \t]{0,3},[ \t]{0,20}/g;
const NAMED_CALL_ANCHOR = /\([ \t]{0,3}["']/g;
// A builder method named for a credential with a literal argument: .bearer_auth("x"), .basicAuth("u", "x"), .setApiKey("x").
const CREDENTIAL_METHOD = /\.((?:bearer_?auth|basic_?auth|set_?api_?key|with_?token|set_?token|set_?password|api_?key|auth_?token|with_?api_?key|with_?credentials|password|token))\([ \t]{0,3}(?:(["'])[^"'\n]{0,128}\2[ \t]{0,3},[ \t]{0,3}(?:Some\()?)?(["'])((?:[^"'\\\n]|\\.){6,512})\3/gi;
// An FTP or POP3 client's PASS, typed (`quote PASS x`) or as ftp -d, a session log or a proxy prints it (`---> PASS x`, `C: PASS x`):
// the client-line prefix is protocol-logs.ts's.
const FTP_PASS = new RegExp(`${CLIENT}(?:quote[ \\t]{1,4}|literal[ \\t]{1,4})?PASS[ \\t]{1,4}(\\S{1,256})[ \\t]*$`, 'gm');
const FTP_PASS_ANCHOR = /PASS[ \t]/g;
// A JWK's private members (RSA d p q dp dq qi, EC/OKP d, oct k) when the object is a key (kty).
const JWK_PRIVATE = /"(?:d|p|q|dp|dq|qi|k)"[ \t]{0,2}:[ \t]{0,2}"([A-Za-z0-9_-]{16,4096}={0,2})"/g;
// name[key]=value where the key names a secret (gh api -f 'config[secret]=x', form fields).
const BRACKET_NAME = /\b[A-Za-z_][\w-]{0,40}\[([A-Za-z_][\w-]{0,40})\]=([^\s'"&]{6,512})/g;
const BRACKET_NAME_ANCHOR = /\]=/g;
// libpq inside a quoted DSN: password=''x''.
const DOUBLED_QUOTES = /=[ \t]{0,3}''((?:[^'\n]|'(?!')){1,256})''/g;
// Oracle user/password@host: jdbc:oracle:thin:scott/x@//h, sqlplus scott/x@db, CONNECT scott/x@db.
const ORACLE = /(?:jdbc:oracle:(?:thin|oci8?|kprb):|\b(?:sqlplus|rman|expdp|impdp|exp|imp|sqlldr|dgmgrl|sql)(?:[ \t]{1,4}-[A-Za-z]{1,2}){0,2}[ \t]{1,8}|\bconn(?:ect)?[ \t]{1,4})["']?([A-Za-z0-9_$#.-]{1,64})\/("[^"\n]{1,256}"|[^\s@"'/][^\s@"']{0,255})@/gi;
const AT_SIGN = /@/g;
// Subversion's auth files: K <n> / password / V <n> / value.
const SVN_AUTH = /(?:^|\n)K \d{1,3}\r?\n([\w.:-]{1,64})\r?\nV \d{1,5}\r?\n([^\r\n]{1,4096})/g;
// Netscape cookies.txt: domain, flag, path, secure, expiry, name, value (tab-separated).
const NETSCAPE_COOKIE = /^(?:#HttpOnly_)?[^\s#][^\s]{0,252}\t(?:TRUE|FALSE)\t[^\t\n]{1,1024}\t(?:TRUE|FALSE)\t-?\d{1,20}\t([^\t\n]{1,256})\t([^\t\r\n]{1,4096})$/gm;
// ['--db-password', 'x'] in an argument list (Python, JSON).
const ARG_LIST = /(["'])--?([A-Za-z][\w.-]{1,48})\1[ \t]{0,2},[ \t]{0,2}(["'])((?:[^"'\\\n]|\\.){1,256})\3/g;
// Terraform plan: ~ password = "old" -> "new".
const TF_CHANGE = /"[ \t]{1,3}->[ \t]{1,3}"((?:[^"\\\n]|\\.){1,512})"/g;
const TF_CHANGED_NAME = /^[ \t]{0,40}[~+-]?[ \t]{0,8}([A-Za-z_][\w.-]{0,63})[ \t]{0,40}=[ \t]{0,3}"/;
// variable "admin_password" { … default = "x" }.
const TF_VARIABLE = /\bvariable[ \t]{1,4}"([A-Za-z_][\w-]{0,63})"[ \t]{0,4}\{/g;
const TF_DEFAULT = /\bdefault[ \t]{0,8}=[ \t]{0,4}"((?:[^"\\\n]|\\.){1,512})"/;
// A map named for what it holds: tokens { agent = "x" }, "accessTokens": { "https://…": "x" }.
// The word is the key's own, not the end of a package or a path (`"node_modules/js-tokens": {`).
const SECRET_MAP = /(?<![A-Za-z0-9/.-])(?:[Tt]okens|TOKENS|[Ss]ecrets|SECRETS|[Pp]asswords|PASSWORDS|[Aa]pi_?[Kk]eys|API_KEYS)["']?[ \t]{0,3}[:=]?[ \t]{0,3}\{/g;
const MAP_VALUE = /[:=][ \t]{0,3}"((?:[^"\\\n]|\\.){1,1024})"/g;
// HMAC keys in code: hmac.new(b'key', …), createHmac('sha256', 'key').
const HMAC_KEY = /\b(?:hmac\.new\([ \t]{0,3}b?|createHmac\([ \t]{0,3}["'][\w-]{1,20}["'][ \t]{0,3},[ \t]{0,3}|HMAC\([ \t]{0,3}(?:key[ \t]{0,2}=[ \t]{0,2})?b?)(["'])([^"'\n]{8,512})\1/g;
// A cookie as a jar or a browser shows it: name=value; Path=/ (no Cookie: header before it).
const COOKIE_JAR = /(?<![\w.-])([A-Za-z_][\w.-]{0,63})=([^;\s"']{6,4096});[ \t]{0,4}(?=(?:path|domain|expires|max-age|secure|httponly|samesite)\b)/gi;
const COOKIE_ATTRIBUTE = /;[ \t]{0,4}(?:path|domain|expires|max-age|secure|httponly|samesite)\b/gi;
// f("x") where f names a secret or a client; not a reader (getToken("name"), loadSecret('id')).
const SECRET_CALL = /\b([A-Za-z_$][\w$]{0,40})\([ \t]{0,3}(["'])([^"'\n\\]{6,512})\2[ \t]{0,3}[),]/g;
const READER_VERB = /^(?:get|read|load|fetch|find|has|is|check|validate|verify|remove|delete|revoke|describe|list|lookup|resolve|use|require|print|log|show|hide|set_?env|env)/i;
const KEBAB_ID = /^[a-z][a-z0-9]{0,30}(?:-[a-z0-9]{1,30}){1,5}$/;
const CLIENT_CALLEE = /(?:^|[a-z])Client$|^client$|^(?:OpenAI|Anthropic|Cohere|Groq|Mistral|Replicate|Stripe|Twilio|Octokit|Github|Gitlab|Slack|WebClient|App|Bot)$/;
const KEY_LIKE = /^[A-Za-z0-9_\-+/=.]{20,512}$/;
/** A literal that looks like a key: long, of a key's alphabet, letters and digits mixed, not a dotted or hyphenated name. */
function looksLikeKey(v: string): boolean {
  return KEY_LIKE.test(v) && !/^pk_(?:live|test)_/.test(v) && /[0-9]/.test(v) && /[A-Z]/.test(v) && /[a-z]/.test(v) && !/^[a-z]+(?:[.-][a-z0-9]+)+$/i.test(v);
}
// Calls that take the password as one of their arguments, and its position (0-based).
const POSITIONAL: [RegExp, number][] = [
  [/^(?:mysqli|mysqli_connect|mysql_connect|mysql_pconnect|mysqli_real_connect)$/i, 2],
  // PHP's constructors by name as a stack trace prints them (PDO->__construct('mysql:…', 'user', 'pw')).
  [/^(?:PDO|PDO->__construct|PDO::__construct|mysqli->__construct|mysqli::__construct|getConnection|ftp_login|ldap_bind|ssh2_auth_password|sqlsrv_connect)$/, 2],
  [/^(?:login|HTTPBasicAuth|HTTPDigestAuth|BasicAuth|basic_auth|DigestAuth|PasswordAuthentication|NetworkCredential|UsernamePasswordCredentials|ConnectionFactory)$/, 1],
  // Credential constructors taking (id, secret[, token]): Tencent Cloud, the AWS SDKs, Aliyun; Algolia's (appId, apiKey).
  [/^(?:NewCredential|NewStaticCredentials|NewStaticCredentialsProvider|NewTokenCredential|Credential|BasicAWSCredentials|BasicSessionCredentials|AwsBasicCredentials\.create|AwsSessionCredentials\.create|StaticCredentialsProvider|AccessKeyCredential|StsTokenCredential|algoliasearch|algoliasearch\.Client|SearchClient\.Create|SearchClient\.create)$/, 1],
  // Perl DBI->connect($dsn, $user, $password, \%attr).
  [/^(?:DBI->connect|DBI->connect_cached)$/, 2],
];
const POSITIONAL_CALL = new RegExp(`\\b(${POSITIONAL.map(([re]) => re.source.slice(4, -2)).join('|')})\\([ \\t]{0,3}(?=["'$A-Za-z_]|\\r?(?:\\n|$))`, 'g');
// A literal part of every name above, to find the lines worth the pattern.
const POSITIONAL_ANCHOR = /mysql|PDO|onnect|ftp_login|ldap_bind|ssh2_auth|login|[Aa]uth|Credential|algolia|SearchClient/g;
// Line ends and indentation may stand between arguments (getConnection(\n    "jdbc:…",\n    "sa",\n    "pw")).
const ARGUMENT = /[ \t\r\n]{0,80}(?:(["'])((?:\\.|(?!\1)[^\\\n]){0,512})\1|[^,()"'\n]{1,200})[ \t\r\n]{0,80}(?:,|\))/y;

/** Every key-like literal among a client call's first arguments (from `at`, just past its open parenthesis). */
function clientArguments(text: string, at: number, spans: Span[]): void {
  for (let k = 0; k < 6; k++) {
    ARGUMENT.lastIndex = at;
    const a = ARGUMENT.exec(text);
    if (!a) return;
    work.reads += a[0].length;
    if (a[1] && a[2] && looksLikeKey(a[2])) push(spans, at + a[0].indexOf(a[1]) + 1, a[2], 'named-call');
    if (a[0].endsWith(')')) return;
    at += a[0].length;
  }
}

/** The argument at the call's password position, when it is a literal. */
function positionalSecret(text: string, c: RegExpExecArray, spans: Span[]): void {
  const entry = POSITIONAL.find(([re]) => re.test(c[1]));
  if (!entry) return;
  let at = c.index + c[0].length;
  for (let k = 0; k <= entry[1]; k++) {
    ARGUMENT.lastIndex = at;
    const a = ARGUMENT.exec(text);
    if (!a) return;
    work.reads += a[0].length;
    if (k === entry[1]) {
      const v = a[2];
      if (a[1] && v && v.length >= 4 && !isPlaceholder(v)) push(spans, at + a[0].indexOf(a[1]) + 1, v, 'positional-password');
      return;
    }
    if (a[0].endsWith(')')) return;
    at += a[0].length;
  }
}

// macOS and iOS property lists: <key>Name</key> then <string>value</string>.
const PLIST_PAIR = /<key>([^<\n]{1,64})<\/key>[ \t\r\n]{0,40}<string>([^<\n]{1,1024})<\/string>/g;
const XML_VALUE_ATTR = /<([A-Za-z][\w.:-]{0,63})((?:[ \t][^<>\n]{0,200}?)?)[ \t]value=(["'])([^"'\n]{1,1024})\3/g;
const ERLANG_PAIR = /\{[ \t]{0,3}'?\$?([A-Za-z_]\w{0,63})'?[ \t]{0,3},[ \t]{0,3}(?:<<)?(["'])([^"'\n]{1,1024})\2/g;
const ERLANG_ANCHOR = /,[ \t]{0,3}(?:<<)?["']/g;

// INSERT INTO t (name, client_secret, …) VALUES ('x', 'y', …): the values of the columns that name a secret.
const INSERT = /\bINSERT[ \t]+INTO[ \t]+[\w."`\[\]]{1,128}[ \t\r\n]{0,8}\(([^()]{1,2000})\)[ \t\r\n]{0,8}VALUES[ \t\r\n]{0,8}\(/gi;
const SQL_VALUE = /[ \t\r\n]{0,8}(?:'((?:[^'\\]|''|\\.){0,1024})'|[^,()'\n]{1,200}(?:\([^()\n]{0,100}\))?)[ \t\r\n]{0,8}(?:,|\))/y;

// A dump's INSERT INTO t VALUES (…),(…) names no columns: CREATE TABLE t (…) earlier in the text does.
const INSERT_BARE = /\bINSERT[ \t]+INTO[ \t]+([\w."`\[\]]{1,128})[ \t\r\n]{0,8}VALUES[ \t\r\n]{0,8}\(/gi;
const CREATE_TABLE = /\bCREATE[ \t]+TABLE[ \t]+(?:IF[ \t]+NOT[ \t]+EXISTS[ \t]+)?([\w."`\[\]]{1,128})[ \t\r\n]{0,8}\(/gi;
const NOT_A_COLUMN = /^(?:PRIMARY|KEY|UNIQUE|CONSTRAINT|INDEX|FOREIGN|CHECK|FULLTEXT|SPATIAL|EXCLUDE|LIKE|PERIOD)$/i;
/** Rows of one INSERT read, at most: a dump's extended insert of a whole table is one statement. */
const MAX_TUPLES = 10_000;

const tableKey = (name: string): string => name.replace(/["`[\]]/g, '').split('.').pop()!.toLowerCase();
const unquote = (c: string): string => c.trim().replace(/^["`[]|["`\]]$/g, '');

/** The column names of each CREATE TABLE in the text, by table (top-level items of its parentheses; constraints skipped). */
function createdTables(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  CREATE_TABLE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = scan(CREATE_TABLE, text)) && out.size < 256) {
    const cols: string[] = [];
    let depth = 0;
    let item = '';
    let i = m.index + m[0].length;
    const end = Math.min(text.length, i + 16384);
    for (; i < end; i++) {
      const c = text[i];
      if (c === '(') depth++;
      else if (c === ')' && depth-- === 0) break;
      if (depth === 0 && (c === ',' || text[i + 1] === ')')) {
        if (c !== ',') item += c;
        const first = /^[ \t\r\n]*([`"[]?[A-Za-z_][\w$]{0,127}[`"\]]?)/.exec(item)?.[1];
        if (first && !NOT_A_COLUMN.test(unquote(first))) cols.push(unquote(first));
        item = '';
      } else if (depth === 0) item += c;
    }
    work.reads += i - m.index;
    out.set(tableKey(m[1]), cols);
  }
  return out;
}

/** Reads the rows of an INSERT from `at` (just past VALUES' first parenthesis) and marks each value whose column names a secret. */
function insertedRows(text: string, at: number, cols: string[], spans: Span[]): void {
  for (let row = 0; row < MAX_TUPLES; row++) {
    let closed = false;
    for (const col of cols) {
      SQL_VALUE.lastIndex = at;
      const v = SQL_VALUE.exec(text);
      if (!v) return;
      work.reads += v[0].length;
      if (v[1] !== undefined && isSensitiveAssignment(col, v[1])) push(spans, at + v[0].indexOf("'") + 1, v[1], 'sql-insert');
      at += v[0].length;
      if (v[0].endsWith(')')) {
        closed = true;
        break;
      }
    }
    // The next row: `,(` (blanks and a line end allowed between).
    if (!closed) return;
    let j = at;
    while (j < text.length && j - at < 8 && (text[j] === ' ' || text[j] === '\t' || text[j] === '\r' || text[j] === '\n')) j++;
    if (text[j] !== ',') return;
    j++;
    while (j < text.length && j - at < 16 && (text[j] === ' ' || text[j] === '\t' || text[j] === '\r' || text[j] === '\n')) j++;
    if (text[j] !== '(') return;
    at = j + 1;
  }
}

// pg_dump's data: COPY t (col, …) FROM stdin; then a row per line, cells split by tabs, up to a line `\.`.
const COPY_FROM = /\bCOPY[ \t]+[\w."]{1,128}[ \t]{0,4}\(([^()\n]{1,2000})\)[ \t]+FROM[ \t]+stdin;?[ \t]*\r?\n/gi;

/** The cells of a COPY block's rows under columns that name a secret. */
function copiedSecrets(text: string, spans: Span[]): void {
  COPY_FROM.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = scan(COPY_FROM, text))) {
    const cols = m[1].split(',').map(unquote);
    const secret = cols.map((c) => isSensitiveName(c) && !/(?:_id|_at|_name|_type|_hash|_digest)$/i.test(c));
    if (!secret.some(Boolean)) continue;
    let ls = m.index + m[0].length;
    for (let rows = 0; rows < MAX_TUPLES && ls < text.length; rows++) {
      let le = text.indexOf('\n', ls);
      if (le === -1) le = text.length;
      work.reads += le - ls + 1;
      const row = text.slice(ls, le).replace(/\r$/, '');
      const cells = row.split('\t');
      // A row has a cell per column; anything else (the end `\.`, a blank, the next statement) ends the block.
      if (cells.length !== cols.length) break;
      let at = 0;
      cells.forEach((cell, i) => {
        if (secret[i] && cell.length >= 6 && cell !== '\\N' && !isPlaceholder(cell)) push(spans, ls + at, cell, 'sql-insert');
        at += cell.length + 1;
      });
      ls = le + 1;
    }
    // The rows read are not read again as the start of another block.
    if (ls > COPY_FROM.lastIndex) COPY_FROM.lastIndex = ls;
  }
}

function insertedSecrets(text: string, spans: Span[]): void {
  if (text.includes('FROM stdin') || text.includes('from stdin')) copiedSecrets(text, spans);
  INSERT.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = scan(INSERT, text))) {
    const cols = m[1].split(',').map(unquote);
    if (!cols.some((c) => isSensitiveName(c))) continue;
    insertedRows(text, m.index + m[0].length, cols, spans);
  }
  if (!/CREATE[ \t]+TABLE/i.test(text)) return;
  let tables: Map<string, string[]> | undefined;
  INSERT_BARE.lastIndex = 0;
  while ((m = scan(INSERT_BARE, text))) {
    tables ??= createdTables(text);
    const cols = tables.get(tableKey(m[1]));
    if (!cols || !cols.some((c) => isSensitiveName(c))) continue;
    insertedRows(text, m.index + m[0].length, cols, spans);
  }
}

/** The single-line patterns run through scanLines, with their anchors (read by the differential test). */
export const LINE_PATTERNS: [RegExp, RegExp][] = [
  [NAMED_CALL, NAMED_CALL_ANCHOR],
  [FTP_PASS, FTP_PASS_ANCHOR],
  [BRACKET_NAME, BRACKET_NAME_ANCHOR],
  [ORACLE, AT_SIGN],
  [COOKIE_JAR, COOKIE_ATTRIBUTE],
  [SECRET_CALL, NAMED_CALL_ANCHOR],
  [POSITIONAL_CALL, POSITIONAL_ANCHOR],
  [ERLANG_PAIR, ERLANG_ANCHOR],
];
// pgbouncer userlist.txt: "user" "password".
const USERLIST = /^"([^"\n]{1,64})"[ \t]{1,8}"([^"\n]{1,512})"[ \t]*$/gm;
// 'Bearer ' + 'token' in code; password = "a" + \n "b".
const CONCAT_SCHEME = /\b(?:Bearer|bearer|Basic|Token|token)[ \t]{0,2}(["'`])[ \t]{0,3}\+[ \t]{0,3}(["'`])([A-Za-z0-9._~+/=-]{8,4096})\2/g;
const CONCAT = /(["'])[ \t]{0,3}\+[ \t]{0,3}(?:\\?\r?\n)?[ \t]{0,40}(["'])([^"'\n]{1,512})\2/g;
const CONCAT_FIRST = /([A-Za-z_][\w.-]{0,63})[ \t]{0,3}[:=][ \t]{0,3}(["'])([^"'\n]{1,512})$/;

/** The literals (two characters or more) whose presence gates a format's scan below. */
const NEEDLES = ["</", "=>", "']", "\"]", "=''", "\nV ", "\tTRUE\t", "\tFALSE\t", "--", "->", "variable", "userlist", ":\n----\n", "chap-secrets", "pap-secrets", "data:", "Data:", "$ ", "# ", "> ", "<(echo", "<<<", "send", "AUTH ", "AUTH'", "AUTH\"", "db.auth(", "\"keyName\"", "\"Secret\"", ">>>", "##[debug]", "=> ", "Out[", "ecrets:", "okens:", "asswords:", "eys:", "SecureString", "\"sensitive\"", ") \""];
const escapeRegExp = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Which NEEDLES the text holds, exactly as text.includes would say, from one scan instead of one per needle
 * (most are absent, and each absent one is a pass over the whole text): an alternation of the needles not yet
 * found finds the next position where one starts; every needle starting there is found; the alternation of the
 * rest goes on from the next position.
 */
function presentNeedles(text: string): Set<string> {
  const found = new Set<string>();
  // A short text: one includes per needle costs less than a scan.
  if (text.length < SHORT_TEXT) {
    for (const n of NEEDLES) if (text.includes(n)) found.add(n);
    return found;
  }
  work.reads += text.length;
  // The needles found, by index in NEEDLES ('1' found, '0' not): more needles than a number has bits.
  const mask = new Array<string>(NEEDLES.length).fill('0');
  let from = 0;
  while (found.size < NEEDLES.length) {
    const re = restPattern(mask.join(''));
    re.lastIndex = from;
    const m = re.exec(text);
    if (!m) break;
    // The leftmost position from `from` where a needle not yet found starts: every such needle that starts there is present.
    const p = m.index;
    for (let i = 0; i < NEEDLES.length; i++) {
      if (mask[i] === '0' && text.startsWith(NEEDLES[i], p)) {
        mask[i] = '1';
        found.add(NEEDLES[i]);
      }
    }
    from = p + 1;
  }
  return found;
}

const SHORT_TEXT = 4096;
/** The alternation of the needles not found in `mask`, compiled once per mask. */
const restPatterns = new Map<string, RegExp>();
function restPattern(mask: string): RegExp {
  let re = restPatterns.get(mask);
  if (!re) {
    re = new RegExp(NEEDLES.filter((_, i) => mask[i] === '0').map(escapeRegExp).join('|'), 'g');
    restPatterns.set(mask, re);
  }
  return re;
}

// A YAML map named for what it holds (helm values `secrets:`, `tokens:`, `apiKeys:`): its direct children's scalar values.
const YAML_SECRET_MAP = /^([ \t]{0,40})(?:secrets|tokens|passwords|api_?[Kk]eys|API_KEYS)[ \t]{0,4}:[ \t]*\r?$/gm;
const YAML_CHILD = /^([ \t]{1,60})([A-Za-z_][\w.-]{0,63})[ \t]{0,4}:[ \t]{1,8}(\S[^\n]{0,511})$/;

function yamlSecretMaps(text: string, spans: Span[]): void {
  YAML_SECRET_MAP.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = scan(YAML_SECRET_MAP, text))) {
    const indent = m[1].length;
    let childIndent = -1;
    let ls = m.index + m[0].length + 1;
    for (let k = 0; k < 64 && ls < text.length; k++) {
      let le = text.indexOf('\n', ls);
      if (le === -1) le = text.length;
      const l = text.slice(ls, le);
      work.reads += le - ls;
      const lead = l.length - l.trimStart().length;
      if (!l.trim() || l.trimStart().startsWith('#')) {
        ls = le + 1;
        continue;
      }
      if (lead <= indent || l.trimStart().startsWith('-')) break;
      if (childIndent === -1) childIndent = lead;
      const c = lead === childIndent ? YAML_CHILD.exec(l) : null;
      if (c) {
        let v = c[3].replace(/[ \t\r]+$/, '');
        if ((v[0] === '"' || v[0] === "'") && v.length > 2 && v[v.length - 1] === v[0]) v = v.slice(1, -1);
        // The child names the secret's owner (stripe, github), not an attribute (ttl, issuer, enabled): secret_<child> stays a secret's name.
        const about = isSensitiveName(`secret_${c[2]}`) && !isNotSecretName(c[2]);
        if (about && v.length >= 6 && !/^[|>][+-]?$/.test(v) && !/^[a-z][a-z0-9+.-]{1,20}:\/\//i.test(v) && !/^\d{1,9}[smhdwy]?$/.test(v) && !isPlaceholder(v) && !isFilePath(v)) push(spans, ls + l.indexOf(v, lead + c[2].length), v, 'secret-map');
      }
      ls = le + 1;
    }
  }
}

// aws ssm get-parameter --with-decryption: a SecureString parameter's value.
const SSM_SECURE = /"Type"[ \t]{0,3}:[ \t]{0,3}"SecureString"[ \t]{0,3},[ \t\r\n]{0,40}"Value"[ \t]{0,3}:[ \t]{0,3}"((?:[^"\\\n]|\\.){1,4096})"/g;
// terraform output -json: an output marked sensitive, then its type, then its value.
const TF_SENSITIVE_OUTPUT = /"sensitive"[ \t]{0,3}:[ \t]{0,3}true[ \t]{0,3},[ \t\r\n]{0,40}(?:"type"[ \t]{0,3}:[ \t]{0,3}(?:"[\w-]{1,40}"|\[[^\n]{0,200}?\])[ \t]{0,3},[ \t\r\n]{0,40})?"value"[ \t]{0,3}:[ \t]{0,3}/g;

export function findFormatSecrets(text: string, spans: Span[]): void {
  const has = presentNeedles(text);
  let m: RegExpExecArray | null;
  if (has.has('</')) {
    XML_ELEMENT.lastIndex = 0;
    while ((m = scan(XML_ELEMENT, text))) {
      // <entry key="db.password">x</entry>, <add name="ApiToken">x</add>: the attribute names the value.
      const attr = m[2] ? /\b(?:key|name|id)=["']([^"'\n]{1,64})["']/.exec(m[2]) : null;
      if (!isSensitiveName(local(m[1])) && !(attr && isSensitiveName(attr[1]))) continue;
      const v = m[3].trim();
      // An app's strings (<string name="password_too_short">Password must be at least 8 characters</string>): a message.
      if (isMessageAbout(v)) continue;
      push(spans, m.index + m[0].indexOf(m[3], m[0].indexOf('>')) + m[3].indexOf(v), v, 'xml');
    }
  }
  if (text.includes(':')) {
    EDN_PAIR.lastIndex = 0;
    while ((m = scan(EDN_PAIR, text))) {
      if (m.index > 0 && /[\w:]/.test(text[m.index - 1])) continue;
      if (!isSensitiveName(m[1]) || !isSensitiveAssignment(m[1], m[2])) continue;
      push(spans, m.index + m[0].length - 1 - m[2].length, m[2], 'edn');
    }
  }
  if (has.has('=>')) {
    ARROW_PAIR.lastIndex = 0;
    while ((m = scan(ARROW_PAIR, text))) if (!(m[3] && m.index > 0 && /[\w:]/.test(text[m.index - 1]))) valueAfter(text, m.index + m[0].length, m[2] ?? m[3], spans, 'map-pair', true);
  }
  if (has.has("']") || has.has('"]') || text.includes('] =') || text.includes(']=')) {
    SUBSCRIPT.lastIndex = 0;
    while ((m = scan(SUBSCRIPT, text))) {
      // An unquoted key in code: `h[token] = getToken()` assigns what a call returns; `[REDACTED:x]=` is loom's own mark.
      if (m[3] !== undefined && (m[3].startsWith('REDACTED') || /^[A-Za-z_$][\w$.]{0,80}[([]/.test(text.slice(m.index + m[0].length, m.index + m[0].length + 84)))) continue;
      valueAfter(text, m.index + m[0].length, m[2] ?? m[3], spans, 'subscript', false);
    }
  }
  if (text.includes('(')) {
    // PHP constants: WordPress's AUTH_KEY, NONCE_KEY, LOGGED_IN_SALT are keys whatever their first word.
    scanLines(NAMED_CALL, NAMED_CALL_ANCHOR, text, (c) => valueAfter(text, c.index + c[0].length, c[0].startsWith('define') && /^[A-Z_]{2,40}_(?:KEY|SALT)$/.test(c[2]) ? 'SECRET_KEY' : c[2], spans, 'named-call', true));
  }
  if (text.includes('.') && text.includes('(')) {
    CREDENTIAL_METHOD.lastIndex = 0;
    while ((m = scan(CREDENTIAL_METHOD, text))) push(spans, m.index + m[0].length - 1 - m[4].length, m[4], 'credential-call');
  }
  if (text.includes('(')) {
    // A literal given to a call named for a secret (SecretStr("x"), Password('x')) or to a client (cohere.Client("key")).
    scanLines(SECRET_CALL, NAMED_CALL_ANCHOR, text, (c) => {
      const callee = c[1];
      const v = c[3];
      if (READER_VERB.test(callee)) return;
      // An id in kebab case names a stored credential (Jenkins' credentials('dockerhub-ci')), it is not one.
      if (KEBAB_ID.test(v)) return;
      if (isSensitiveName(callee) ? isSensitiveAssignment(callee, v) : CLIENT_CALLEE.test(callee) && looksLikeKey(v)) push(spans, c.index + c[1].length + c[0].slice(c[1].length).indexOf(c[2]) + 1, v, 'named-call');
      // A client takes its id and its secret side by side (Twilio's Client(keySid, secret, accountSid)): each key-like literal.
      if (!isSensitiveName(callee) && CLIENT_CALLEE.test(callee)) clientArguments(text, c.index + c[1].length + 1, spans);
    });
    // A password by position: new mysqli(host, user, PASS, db), DriverManager.getConnection(url, user, PASS), smtp.login(user, PASS).
    scanLines(POSITIONAL_CALL, POSITIONAL_ANCHOR, text, (c) => positionalSecret(text, c, spans));
  }
  if (text.includes('<key>')) {
    PLIST_PAIR.lastIndex = 0;
    while ((m = scan(PLIST_PAIR, text))) if (isSensitiveName(m[1].trim()) && isSensitiveAssignment(m[1].trim(), m[2].trim())) push(spans, m.index + m[0].lastIndexOf(m[2]), m[2], 'plist');
  }
  if (text.includes('value=')) {
    // <customerToken value="x" />, <add key="ApiToken" value="x" /> (the element or its key names the value).
    XML_VALUE_ATTR.lastIndex = 0;
    while ((m = scan(XML_VALUE_ATTR, text))) {
      const named = /\b(?:key|name)=["']([^"'\n]{1,64})["']/.exec(m[2]);
      const name = isSensitiveName(local(m[1])) ? local(m[1]) : named && isSensitiveName(named[1]) ? named[1] : undefined;
      if (name && isSensitiveAssignment(name, m[4])) push(spans, m.index + m[0].length - 1 - m[4].length, m[4], 'xml');
    }
  }
  if (text.includes('{') && text.includes(',')) {
    // Erlang and Elixir terms: {'$write_key', <<"x">>}, {api_key, "x"}.
    scanLines(ERLANG_PAIR, ERLANG_ANCHOR, text, (c) => {
      if (isSensitiveName(c[1]) && isSensitiveAssignment(c[1], c[3])) push(spans, c.index + c[0].length - 1 - c[3].length, c[3], 'assignment');
    });
  }
  if (text.includes('INSERT') || text.includes('insert')) insertedSecrets(text, spans);
  else if (text.includes('FROM stdin') || text.includes('from stdin')) copiedSecrets(text, spans);
  if (text.includes('PASS')) {
    scanLines(FTP_PASS, FTP_PASS_ANCHOR, text, (c) => {
      if (!/^[*x•]+$|^\$|^</.test(c[1])) push(spans, c.index + c[0].indexOf(c[1], c[0].indexOf('PASS') + 4), c[1], 'ftp-pass');
    });
  }
  if (text.includes('"kty"')) {
    JWK_PRIVATE.lastIndex = 0;
    while ((m = scan(JWK_PRIVATE, text))) push(spans, m.index + m[0].length - 1 - m[1].length, m[1], 'jwk-private');
  }
  if (text.includes(']=')) {
    scanLines(BRACKET_NAME, BRACKET_NAME_ANCHOR, text, (c) => {
      if (isSensitiveName(c[1]) && isSensitiveAssignment(c[1], c[2])) push(spans, c.index + c[0].length - c[2].length, c[2], 'assignment');
    });
  }
  if (has.has("=''")) {
    DOUBLED_QUOTES.lastIndex = 0;
    while ((m = scan(DOUBLED_QUOTES, text))) if (isSensitiveName(nameBefore(text, m.index))) push(spans, m.index + m[0].length - 2 - m[1].length, m[1], 'assignment');
  }
  if (text.includes('@') && text.includes('/')) {
    scanLines(ORACLE, AT_SIGN, text, (c) => {
      const q = c[2].startsWith('"') ? 1 : 0;
      push(spans, c.index + c[0].length - 1 - c[2].length + q, q ? c[2].slice(1, -1) : c[2], 'connect-string');
    });
  }
  if (has.has('\nV ')) {
    SVN_AUTH.lastIndex = 0;
    while ((m = scan(SVN_AUTH, text))) if (isSensitiveName(m[1])) push(spans, m.index + m[0].length - m[2].length, m[2], 'svn-auth');
  }
  if (has.has('\tTRUE\t') || has.has('\tFALSE\t')) {
    NETSCAPE_COOKIE.lastIndex = 0;
    while ((m = scan(NETSCAPE_COOKIE, text))) {
      const v = m[2].trim();
      if (SECRET_COOKIE.test(m[1]) || (v.length >= 16 && /[0-9]/.test(v))) push(spans, m.index + m[0].length - m[2].length, v, 'cookie');
    }
  }
  if (has.has('--')) {
    ARG_LIST.lastIndex = 0;
    while ((m = scan(ARG_LIST, text))) {
      if (NO_VALUE_FLAG.test(m[2]) || !isSensitiveName(m[2])) continue;
      push(spans, m.index + m[0].length - 1 - m[4].length, m[4], 'cli-flag');
    }
  }
  if (has.has('->')) {
    TF_CHANGE.lastIndex = 0;
    while ((m = scan(TF_CHANGE, text))) {
      const n = TF_CHANGED_NAME.exec(lineBefore(text, m.index));
      if (n && isSensitiveName(n[1])) push(spans, m.index + m[0].length - 1 - m[1].length, m[1], 'assignment');
    }
  }
  if (has.has('variable')) {
    TF_VARIABLE.lastIndex = 0;
    while ((m = scan(TF_VARIABLE, text))) {
      if (!isSensitiveName(m[1])) continue;
      const from = m.index + m[0].length;
      let to = text.indexOf('\n}', from);
      if (to === -1 || to - from > 1200) to = Math.min(text.length, from + 1200);
      work.reads += to - from;
      const d = TF_DEFAULT.exec(text.slice(from, to));
      if (d) push(spans, from + d.index + d[0].length - 1 - d[1].length, d[1], 'assignment');
    }
  }
  if (text.includes('{')) {
    SECRET_MAP.lastIndex = 0;
    while ((m = scan(SECRET_MAP, text))) {
      const from = m.index + m[0].length;
      let to = text.indexOf('}', from);
      const open = text.indexOf('{', from);
      if (open !== -1 && (to === -1 || open < to)) to = open; // a nested map: only the values before it
      if (to === -1 || to - from > 4000) to = Math.min(text.length, from + 4000);
      work.reads += to - from;
      const block = text.slice(from, to);
      MAP_VALUE.lastIndex = 0;
      let v: RegExpExecArray | null;
      // Durations and flags in a policy map ("tokens": {"refresh": "30d"}) are not secrets: a value has some length.
      while ((v = MAP_VALUE.exec(block))) if (v[1].length >= 6 && /[0-9]/.test(v[1]) && /[A-Za-z]/.test(v[1])) push(spans, from + v.index + v[0].length - 1 - v[1].length, v[1], 'secret-map');
      SECRET_MAP.lastIndex = Math.max(SECRET_MAP.lastIndex, to);
    }
  }
  if (/mac/i.test(text)) {
    HMAC_KEY.lastIndex = 0;
    while ((m = scan(HMAC_KEY, text))) push(spans, m.index + m[0].length - 1 - m[2].length, m[2], 'hmac-key');
  }
  if (has.has('userlist')) {
    USERLIST.lastIndex = 0;
    while ((m = scan(USERLIST, text))) push(spans, m.index + m[0].length - 1 - m[2].length, m[2], 'userlist');
  }
  if (text.includes('+')) {
    CONCAT_SCHEME.lastIndex = 0;
    while ((m = scan(CONCAT_SCHEME, text))) push(spans, m.index + m[0].length - 1 - m[3].length, m[3], 'bearer-token');
    CONCAT.lastIndex = 0;
    while ((m = scan(CONCAT, text))) {
      const before = lineBefore(text, m.index);
      const f = CONCAT_FIRST.exec(before);
      if (!f || f[2] !== m[1] || !isSensitiveName(f[1])) continue;
      push(spans, m.index - f[3].length, f[3], 'assignment');
      push(spans, m.index + m[0].length - 1 - m[3].length, m[3], 'assignment');
    }
  }
  if (has.has(':\n----\n')) describedData(text, spans);
  if (text.includes('=')) {
    scanLines(COOKIE_JAR, COOKIE_ATTRIBUTE, text, (c) => {
      if (SECRET_COOKIE.test(c[1])) push(spans, c.index + c[0].indexOf('=') + 1, c[2], 'cookie');
    });
  }
  if (has.has('chap-secrets') || has.has('pap-secrets')) chapSecrets(text, spans);
  if (text.includes('davfs2/secrets')) davfsSecrets(text, spans);
  if (has.has('data:') || has.has('Data:')) kubernetesSecretData(text, spans);
  if (has.has('ecrets:') || has.has('okens:') || has.has('asswords:') || has.has('eys:')) yamlSecretMaps(text, spans);
  if (has.has('SecureString')) {
    SSM_SECURE.lastIndex = 0;
    while ((m = scan(SSM_SECURE, text))) if (!isPlaceholder(m[1])) push(spans, m.index + m[0].length - 1 - m[1].length, m[1], 'ssm-secure-string');
  }
  if (has.has('"sensitive"')) {
    TF_SENSITIVE_OUTPUT.lastIndex = 0;
    while ((m = scan(TF_SENSITIVE_OUTPUT, text))) {
      const v = readValue(text, m.index + m[0].length, { stops: ',}' });
      if (v && !isPlaceholder(text.slice(v[0], v[1]))) push(spans, v[0], text.slice(v[0], v[1]), 'terraform-sensitive');
    }
  }
  findPrintedSecrets(text, spans, has);
}

/** The line's text before index i (at most 600 characters). */
function lineBefore(text: string, i: number): string {
  const ls = Math.max(text.lastIndexOf('\n', i - 1) + 1, i - 600);
  work.reads += i - ls;
  return text.slice(ls, i);
}

/** The name right before a separator at i (blanks skipped): `password` in `password =`. */
function nameBefore(text: string, i: number): string {
  let e = i;
  while (e > 0 && i - e < 3 && (text[e - 1] === ' ' || text[e - 1] === '\t')) e--;
  let b = e;
  while (b > 0 && e - b < 64 && /[\w.-]/.test(text[b - 1])) b--;
  return text.slice(b, e);
}

/** The value at `at` when `name` holds a secret (quoted values only when `quotedOnly`). */
function valueAfter(text: string, at: number, name: string, spans: Span[], rule: string, quotedOnly: boolean): void {
  if (!isSensitiveName(name)) return;
  const q = text.charCodeAt(at);
  const quoted = q === 34 || q === 39 || q === 96;
  if (quotedOnly && !quoted) return;
  const v = readValue(text, at, { stops: ',;)]}' });
  if (!v) return;
  const value = text.slice(v[0], v[1]);
  if (!isSensitiveAssignment(name, value)) return;
  spans.push({ start: v[0], end: v[1], rule });
}

/** davfs2's secrets file (printed after its path): `URL-or-mountpoint user password` lines, up to a prompt or a blank line. */
function davfsSecrets(text: string, spans: Span[]): void {
  let read = 0;
  for (let at = text.indexOf('davfs2/secrets'); at !== -1; at = text.indexOf('davfs2/secrets', Math.max(at + 14, read))) {
    let ls = text.indexOf('\n', at);
    for (let n = 0; ls !== -1 && n < 64; n++) {
      let le = text.indexOf('\n', ls + 1);
      if (le === -1) le = text.length;
      const line = text.slice(ls + 1, le);
      work.reads += line.length + 1;
      if (!line.trim() || /^[ \t]{0,4}[$#>%][ \t]/.test(line)) break;
      const f = /^[ \t]*(\S{1,1024})[ \t]+("[^"\n]{1,256}"|\S{1,256})[ \t]+("[^"\n]{1,256}"|\S{1,256})[ \t]*\r?$/.exec(line);
      if (f && !f[1].startsWith('#')) {
        const raw = f[3];
        const v = raw.startsWith('"') ? raw.slice(1, -1) : raw;
        push(spans, ls + 1 + line.lastIndexOf(raw) + (raw.startsWith('"') ? 1 : 0), v, 'davfs-secret');
      }
      ls = le < text.length ? le : -1;
      read = le;
    }
  }
}

/** /etc/ppp/chap-secrets: client server secret [addresses]: the third field. */
function chapSecrets(text: string, spans: Span[]): void {
  const re = /^[ \t]{0,8}("[^"\n]{1,64}"|[^\s#"][^\s]{0,63})[ \t]{1,16}("[^"\n]{0,64}"|\S{1,64})[ \t]{1,16}("[^"\n]{1,256}"|\S{1,256})/gm;
  let m: RegExpExecArray | null;
  while ((m = scan(re, text))) {
    const raw = m[3];
    const v = raw.startsWith('"') ? raw.slice(1, -1) : raw;
    if (v === '*' || v === '-') continue;
    push(spans, m.index + m[0].length - raw.length + (raw.startsWith('"') ? 1 : 0), v, 'chap-secret');
  }
}

// kind: Secret … data: / stringData: entries (base64 or plain); not a ConfigMap's binaryData.
const DATA_LINE = /^([ \t]*)(?:data|stringData|Data):[ \t]*$/gm;
const ENTRY = /^([ \t]+)([\w.-]{1,253}):[ \t]{0,8}(.{0,8192})$/;

/**
 * A Secret's entry that holds nothing secret: the namespace a service-account token Secret names, and certificates
 * (`ca.crt`, `tls.crt`: base64 of PEM CERTIFICATE blocks and nothing else; a bundle with a key in it stays secret).
 */
function publicSecretEntry(key: string, value: string): boolean {
  if (key === 'namespace') return true;
  if (!/^[A-Za-z0-9+/]{40,}={0,2}$/.test(value) || value.length % 4 !== 0) return false;
  const pem = Buffer.from(value, 'base64').toString('latin1');
  return /^\s*-----BEGIN CERTIFICATE-----/.test(pem) && !/PRIVATE KEY|BEGIN (?!CERTIFICATE)/.test(pem);
}

function kubernetesSecretData(text: string, spans: Span[]): void {
  DATA_LINE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = scan(DATA_LINE, text))) {
    const indent = m[1].length;
    // The YAML document around it must be a Secret (or `kubectl get/describe secret` output).
    const docStart = Math.max(text.lastIndexOf('\n---', m.index), 0);
    let docEnd = text.indexOf('\n---', m.index);
    if (docEnd === -1) docEnd = text.length;
    work.reads += Math.min(docEnd - docStart, 65536);
    const doc = text.slice(docStart, Math.min(docEnd, docStart + 65536));
    if (!/^[ \t]*kind:[ \t]*["']?Secret["']?[ \t]*$/m.test(doc) && !/\b(?:get|describe)[ \t]{1,4}secrets?\b/.test(doc)) continue;
    if (/^[ \t]*kind:[ \t]*["']?(?:ConfigMap|Pod|Deployment)["']?[ \t]*$/m.test(doc)) continue;
    let ls = m.index + m[0].length + 1;
    let block = -1;
    while (ls < docEnd) {
      let le = text.indexOf('\n', ls);
      if (le === -1) le = text.length;
      const l = text.slice(ls, le).replace(/\r$/, '');
      work.reads += le - ls;
      const lead = l.length - l.trimStart().length;
      if (l.trim() === '') {
        ls = le + 1;
        continue;
      }
      if (lead <= indent) break;
      if (block !== -1 && lead > block) {
        push(spans, ls + lead, l.trim(), 'k8s-secret');
      } else {
        const e = ENTRY.exec(l);
        if (!e) break;
        block = -1;
        const v = e[3].trim();
        if (/^[>|][+-]?$/.test(v)) block = lead;
        else if (v && !/^\d+ bytes$/.test(v)) {
          const q = /^(["']).+\1$/.test(v) ? 1 : 0;
          if (!publicSecretEntry(e[2], q ? v.slice(1, -1) : v)) push(spans, ls + l.lastIndexOf(v) + q, q ? v.slice(1, -1) : v, 'k8s-secret');
        }
      }
      ls = le + 1;
    }
    DATA_LINE.lastIndex = Math.max(DATA_LINE.lastIndex, ls);
  }
}

// kubectl describe configmap/secret: `NAME:` / `----` / the value's lines up to a blank line.
const DESCRIBED = /^([A-Za-z_][\w.-]{0,253}):\r?\n-{4}\r?\n/gm;

function describedData(text: string, spans: Span[]): void {
  DESCRIBED.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = scan(DESCRIBED, text))) {
    if (!isSensitiveName(m[1])) continue;
    let ls = m.index + m[0].length;
    for (let k = 0; k < 64 && ls < text.length; k++) {
      let le = text.indexOf('\n', ls);
      if (le === -1) le = text.length;
      work.reads += le - ls;
      const l = text.slice(ls, le).replace(/\r$/, '');
      if (!l.trim() || /^[A-Za-z_][\w.-]{0,253}:$/.test(l) || /^[=-]{3,}$/.test(l)) break;
      const v = l.trim().replace(/\\$/, '');
      push(spans, ls + l.indexOf(v), v, 'k8s-data');
      ls = le + 1;
    }
  }
}

// A shell prompt line and its command.
// A shell's prompt before the command: a bare `$ ` `# ` `% ` `> `, PowerShell's `PS C:\x>`, or the usual prompts with
// who and where before the sign (bash `user@host:/srv/app# `, zsh `user@mbp ~/work % `, `(venv) ~/proj $ `, `bash-5.2$ `).
const PRINTED_URL = /^[a-z][a-z0-9+.-]{1,20}:\/\/\S*$/i;
const PROMPT = /^[ \t]{0,4}(?:(?:\([\w.-]{1,40}\)[ \t]{1,2})?(?:[\w.-]{1,40}@[\w.-]{1,64}(?::[^\s$#%>]{0,120}|[ \t]{1,2}[^\s$#%>]{1,120})|~[^\s$#%>]{0,120}|bash-\d(?:\.\d{1,2})?)[ \t]{0,2})?(?:[$#%>]|PS [^>\n]{0,80}>)[ \t]{1,4}([^\n]{1,400})$/gm;
/** Commands whose output is a secret (a password manager's read, a key generator, a token printer). */
export const PRINTS_SECRET = new RegExp(
  '^(?:sudo[ \\t]+)?(?:' +
    [
      '(?:pass|gopass)(?:[ \\t]+show)?(?:[ \\t]+-{1,2}[a-z-]{1,20}){0,3}[ \\t]+(?!-|(?:ls|list|find|search|grep|init|git|edit|rm|mv|cp|insert|generate|version|help)\\b)[\\w@./-]{1,200}[ \\t]*$',
      'lpass[ \\t]+show\\b.*(?:--password|[ \\t]-p\\b)',
      'security[ \\t]+find-(?:generic|internet)-password\\b.*[ \\t]-w\\b',
      'secret-tool[ \\t]+lookup\\b',
      'keyring[ \\t]+get\\b',
      'op[ \\t]+(?:item[ \\t]+get\\b.*--fields?[ =](?:label=)?\\w*(?:password|credential|token|secret|key)|read\\b)',
      'bw[ \\t]+get[ \\t]+(?:password|totp|notes)\\b',
      'vault[ \\t]+(?:kv[ \\t]+get|read)\\b.*-field[ =]',
      '(?:consul|nomad[ \\t]+operator(?:[ \\t]+gossip)?)[ \\t]+keygen\\b',
      'wg[ \\t]+genkey\\b(?!.*\\bwg[ \\t]+pubkey\\b)',
      'openssl[ \\t]+rand\\b',
      'gh[ \\t]+auth[ \\t]+token\\b',
      // jq -r of a field named for a secret, or of a random_password's result in terraform's state.
      '(?:[^\\n|]*\\|[ \\t]*){0,3}jq\\b[^\\n|]{0,40}[ \\t]-[a-z]{0,4}r[a-z]{0,4}\\b[^\\n]{0,300}\\.(?:\\w{0,30}(?:password|secret|token|private_key|api_key|apikey)\\w{0,30}|result)\\b[^\\n.]{0,80}$',
      // nmcli -s/--show-secrets -g …psk / …password: the Wi-Fi or VPN secret alone on the line.
      'nmcli\\b.*(?:[ \\t]-s\\b|--show-secrets\\b).*[ \\t](?:-g|--get-values)[ \\t]+\\S*(?:psk|password|secret)\\S*',
      '(?:fly|flyctl)[ \\t]+auth[ \\t]+token\\b',
      'vault[ \\t]+print[ \\t]+token\\b',
      'aws[ \\t]+codeartifact[ \\t]+get-authorization-token\\b.*--output[ =]text\\b',
      'aws[ \\t]+ecr[ \\t]+get-login-password\\b',
      'gcloud[ \\t]+auth[ \\t]+(?:application-default[ \\t]+)?print-(?:access|identity)-token\\b',
      'heroku[ \\t]+auth:token\\b',
      'kubectl[ \\t]+create[ \\t]+token\\b',
      'snyk[ \\t]+config[ \\t]+get[ \\t]+api\\b',
      'az[ \\t]+\\S.*\\b(?:keys?|secrets?|password|token|credentials?|connection-string)\\b.*(?:-o|--output)[ \\t]+tsv\\b.*',
      'terraform[ \\t]+output[ \\t]+(?:-raw[ \\t]+|-json[ \\t]+)?\\w*(?:password|secret|token|key)\\w*[ \\t]*$',
      '(?:bin/)?rails[ \\t]+secret\\b',
      'aws[ \\t]+configure[ \\t]+get[ \\t]+\\w*(?:secret|token|password)\\w*\\b',
      'aws[ \\t]+(?:ssm[ \\t]+get-parameters?\\b(?=.*--with-decryption\\b)|secretsmanager[ \\t]+get-secret-value\\b)(?=.*--output[ =]text\\b)',
      'gcloud[ \\t]+secrets[ \\t]+versions[ \\t]+access\\b',
      'heroku[ \\t]+config:get[ \\t]+(?:-a[ \\t]+\\S+[ \\t]+)?\\w*(?:KEY|TOKEN|SECRET|PASSWORD|PASS|PAT|key|token|secret|password)\\b',
      'doppler[ \\t]+secrets[ \\t]+get\\b.*--plain\\b',
      'npm[ \\t]+config[ \\t]+get[ \\t]+\\S*:_(?:authToken|auth|password)\\b',
      'kubectl[ \\t]+get[ \\t]+secrets?\\b.*go-template=.*\\bbase64decode\\b',
      'kubectl[ \\t]+config[ \\t]+view\\b.*jsonpath=.*\\b(?:token|password|client-key-data)\\b',
      'keepassxc-cli[ \\t]+show\\b.*(?:-a|--attributes?)[ \\t=]+["\']?[Pp]assword\\b',
      '[\\w-]{0,20}-cli\\b.*[ \\t]dumpprivkey\\b',
      // The private key first (cat privatekey publickey: the first line printed is the private one).
      'cat[ \\t]+\\S*(?:privatekey|private[_.-]key|priv\\.key|wg\\d{0,2}\\.key)(?:[ \\t]+\\S*(?:publickey|public[_.-]key|pub\\.key|\\.pub))?[ \\t]*$',
      'op[ \\t]+item[ \\t]+get\\b.*--reveal\\b',
      'aws[ \\t]+configure[ \\t]+get[ \\t]+(?:--profile[ \\t=]+\\S+[ \\t]+)?[\\w.-]*(?:secret|token|password)\\w*(?:[ \\t]+--profile[ \\t=]+\\S+)?[ \\t]*$',
      // A file named for what it holds (initialAdminPassword, db_password.txt, signing.pass, api.token), and the
      // files whose whole content is a shared secret: Erlang's cookie (RabbitMQ, CouchDB), a .pgpass-less peer secret.
      'cat[ \\t]+\\S*(?:master\\.key|credentials\\.key|\\.erlang\\.cookie|vault[_-]?pass\\w*(?:\\.txt)?|\\.vault_pass\\w*|\\.google_authenticator|[\\w.-]*(?:[Pp]assword|PASSWORD|passwd|[Pp]assphrase|[Ss]ecret|SECRET|[Tt]oken|TOKEN)s?(?:\\.txt)?|[\\w-]+\\.(?:pass|passwd|password|secret|token))(?:[ \\t]*\\|[ \\t]*head\\b.*|[ \\t]*;.*)?[ \\t]*$',
    ].join('|') +
    ')',
);
/** A secret manager's read: the value may hold spaces (a passphrase). */
const SECRET_MANAGER_READ = /^(?:gcloud[ \t]+secrets[ \t]+versions[ \t]+access|aws[ \t]+(?:ssm|secretsmanager)[ \t])/;
// python -c "…; print(settings.SECRET_KEY)", rails runner 'puts …secret_key_base', node -e 'console.log(…)': the first argument printed names what the output is.
// The value may be wrapped for printing first (print(repr(settings.SECRET_KEY)), console.log(JSON.stringify(cfg.token))).
const PY_PRINT = /\b(?:print\(|puts[ \t(]|console\.log\()[ \t]{0,2}(?:(?:repr|str|ascii|json\.dumps|JSON\.stringify|inspect|String)\([ \t]{0,2}){0,2}(?:[A-Za-z_]\w{0,40}(?:\.|::)){0,5}([A-Za-z_]\w{0,63})(?:\[[^\]\n]{0,20}\])?[ \t]{0,2}\){0,2}[ \t]{0,2}([),'";]|$)/;
const IN_CONTAINER = /^(?:sudo[ \t]+)?(?:docker|podman|nerdctl|kubectl|oc)(?:[ \t]+compose)?[ \t]+exec\b/;
const PRINTENV = /^(?:printenv[ \t]+([A-Za-z_]\w{0,63})|echo[ \t]+"?\$\{?([A-Za-z_]\w{0,63})\}?"?)[ \t]*$/;
// echo 'x' | sudo -S …, printf x | docker login --password-stdin, <(echo 'x') after a password option.
const ECHO_PIPE = /\b(?:echo|printf)[ \t]{1,4}(?:-[neE]{1,3}[ \t]{1,4})?(?:(?:'[^'\n%]{0,40}%[^'\n]{0,40}'|"[^"\n%]{0,40}%[^"\n]{0,40}"|%[sb](?:\\n)?)[ \t]{1,4})?(?:\$'((?:[^'\\\n]|\\.){1,256})'|'([^'\n]{1,256})'|"((?:[^"\\\n]|\\.){1,256})"|([^\s|;&'"()$]{1,256}))[ \t]{0,4}\|[ \t]{0,4}([^\n|]{0,200})/g;
// set -x prints each stage of `echo x | docker login --password-stdin` on its own line: `+ echo x` then `+ docker login ...`.
const XTRACE_ECHO = /^(\+{1,8})[ \t](?:echo|printf)[ \t]{1,4}(?:-[neE]{1,3}[ \t]{1,4})?(?:'([^'\n]{1,256})'|"((?:[^"\\\n]|\\.){1,256})"|([^\s|;&'"()]{1,256}))[ \t]{0,4}\r?\n\1[ \t]([^\n]{0,200})/gm;
const STDIN_READER = /^(?:sudo\b[^\n]{0,100}?[ \t]-[A-Za-z]{0,4}S\b|[^\n]{0,200}?(?:--(?:pass(?:wd|word|phrase)?[-_](?:on[-_]|from[-_])?stdin|stdin[-_]pass(?:wd|word)?)\b|--passphrase-fd|--pass(?:word)?[ =]stdin|\bpasswd[ \t]{1,4}--stdin|\bchpasswd\b|\bsmbpasswd\b|\bcryptsetup\b|\blogin\b|\bunlock\b|\bkinit\b|\bsecrets?[ \t]{1,4}(?:create|set|put|add)\b|\benv[ \t]{1,4}add\b|\bssh-add\b|-pass(?:in)?[ \t]{1,4}stdin\b))/;
// sudo -S … <<< 'x', chpasswd <<< 'user:x': a here-string into a password reader.
const HERE_STRING = /<<<[ \t]{0,4}(?:'([^'\n]{1,256})'|"((?:[^"\\\n]|\\.){1,256})"|([^\s;|&'"]{1,256}))/g;
// expect scripts: expect "*assword*" then send "x\r".
const EXPECT_SEND = /expect[ \t]{1,4}(?:-[a-z]{2,5}[ \t]{1,4})?["{][^"}\n]{0,40}(?:assword|assphrase|PIN|secret|token)[^"}\n]{0,40}["}][ \t;]{0,4}(?:\r?\n[ \t]{0,40})?send[ \t]{1,4}(?:--[ \t]{1,4})?"((?:[^"\\\n]|\\[^rn]){1,256})(?:\\r|\\n)?"/g;
// redis-cli AUTH [user] pass; mongo db.auth("user", "pass").
const REDIS_AUTH = /(?:^|>[ \t]{0,2})AUTH[ \t]{1,4}(?:[^\s]{1,64}[ \t]{1,4})?([^\s]{4,256})[ \t]*$/gm;
// redis-cli CONFIG GET requirepass: 1) "name" then 2) "value".
const REDIS_CONFIG = /^\d{1,3}\) "([\w.-]{1,64})"\r?\n\d{1,3}\) "((?:[^"\\\n]|\\.){1,512})"/gm;
// A value written into a file named for a secret (`echo 'pw' > ~/.vault_pass.txt`, `printf %s "$t" > token.txt`).
const ECHO_TO_FILE = /\b(?:echo|printf)[ \t]{1,4}(?:-[neE]{1,3}[ \t]{1,4})?(?:'%s(?:\\n)?'[ \t]{1,4}|"%s(?:\\n)?"[ \t]{1,4}|%s[ \t]{1,4})?(?:'([^'\n]{1,256})'|"((?:[^"\\\n]|\\.){1,256})"|([^\s|;&'"()<>]{1,256}))[ \t]{0,4}>>?[ \t]{0,4}(["']?)([^\s'";&|]{1,256})\4/g;
const GHA_SECRET_EVAL = /##\[debug\]Evaluating:[ \t]{0,3}(?:[\w.]{0,64}\.)?secrets\.[A-Za-z_]\w{0,63}/g;
const GHA_RESULT = /^##\[debug\](?:\.{0,8}=>|Result:)[ \t]{0,3}'((?:[^'\n]|''){1,1024})'\s*$/;
// Redis AUTH sent from code: execute_command('AUTH', 'user', 'pass') or ("AUTH", "pass"): the last string is the password.
const REDIS_AUTH_CALL = /(["'])AUTH\1[ \t]{0,3},[ \t]{0,3}(["'])([^"'\n]{1,256})\2(?:[ \t]{0,3},[ \t]{0,3}(["'])([^"'\n]{1,256})\4)?/g;
const DB_AUTH = /\bdb\.auth\([ \t]{0,3}["'][^"'\n]{1,64}["'][ \t]{0,3},[ \t]{0,3}(["'])([^"'\n]{1,256})\1/g;
// Azure key lists as JSON: {"keyName": "key1", "permissions": "FULL", "value": "…"}.
const KEYNAME_VALUE = /"keyName"[ \t]{0,3}:[ \t]{0,3}"[^"\n]{1,64}"[^{}]{0,300}?"value"[ \t]{0,3}:[ \t]{0,3}"([^"\n]{8,512})"/g;
const REG_VALUE = /^[ \t]{1,16}([A-Za-z_][\w.-]{0,127})[ \t]{2,40}REG_(?:SZ|EXPAND_SZ|MULTI_SZ)[ \t]{2,40}(\S(?:[^\n]{0,1022}\S)?)(?=[ \t]*\r?$)/gm;
// One object's "name" and "value" (az keyvault secret show, a Key Vault or env list as JSON), in either order: the value
// is secret when the name says so (SqlAdminPassword, OpenAiKey).
const NAME_THEN_VALUE_JSON = /"name"[ \t]{0,3}:[ \t]{0,3}"([^"\n]{1,128})"(?:[^{}]|\{[^{}\n]{0,200}\}){0,600}?"value"[ \t]{0,3}:[ \t]{0,3}"((?:[^"\\\n]|\\.){4,4096})"/g;
const VALUE_THEN_NAME_JSON = /"value"[ \t]{0,3}:[ \t]{0,3}"((?:[^"\\\n]|\\.){4,4096})"(?:[^{}]|\{[^{}\n]{0,200}\}){0,600}?"name"[ \t]{0,3}:[ \t]{0,3}"([^"\n]{1,128})"/g;
// kubectl get secret -o json: "data": { … } of a "kind": "Secret".
const JSON_DATA = /"(?:data|stringData)"[ \t]{0,3}:[ \t]{0,3}\{/g;
const ECHO_SUBST = /[ =]<\(echo[ \t]{1,4}(?:'([^'\n]{1,256})'|"([^"\n]{1,256})"|([^\s)]{1,256}))\)/g;
// An expression that reads a secret, then its value (a REPL, a CI debug log): `>>> s.session_key` / `'x'`.
const READS_SECRET = /(?:^|[.\[\s])["']?([A-Za-z_]\w{0,63})["']?\]?(?:\(\))?[ \t]*$/;
/** A line a REPL or a CI debug log prints before an expression's value. */
const REPL_PROMPT = /(?:>>>|##\[debug\]Evaluating|irb|pry|\[\d{1,4}\]|^In \[)/;
/** What a REPL_PROMPT line holds somewhere (its `^In [` anywhere): no piece, no prompt. */
const REPL_PROMPT_PIECE = /(?:>>>|##\[debug\]Evaluating|irb|pry|\[\d{1,4}\]|In \[)/g;
const withoutCr = (l: string) => (l.charCodeAt(l.length - 1) === 13 ? l.slice(0, -1) : l);
const SHOWN_VALUE = /^(?:\d{4}-\d\d-\d\dT[0-9:.]{8,20}Z[ \t]{1,4})?[ \t]{0,8}(?:##\[debug\]Result:[ \t]*|=>[ \t]*|Out\[\d{1,4}\]:[ \t]*|\$\d{1,4} = )?(["']?)([^\s'"]{4,512})\1[ \t]*$/;

// echo "deploying with $API_KEY": the output line is the same text with the secret in place of the variable.
const ECHO_TEMPLATE = /^echo[ \t]{1,4}(?:-[neE]{1,2}[ \t]{1,4})?"([^"$\n]{0,100})\$\{?([A-Za-z_]\w{0,63})\}?([^"$\n]{0,100})"[ \t]*(?:;[ \t]*)?$/;

function echoedSecret(text: string, cmd: string, ls: number, spans: Span[]): void {
  const e = ECHO_TEMPLATE.exec(cmd);
  if (!e || (!e[1] && !e[3]) || !isSensitiveName(e[2]) || ls >= text.length) return;
  let le = text.indexOf('\n', ls);
  if (le === -1) le = text.length;
  if (le - ls > 4096) return;
  work.reads += le - ls;
  const out = text.slice(ls, le).replace(/\r$/, '');
  if (!out.startsWith(e[1]) || !out.endsWith(e[3]) || out.length <= e[1].length + e[3].length) return;
  const v = out.slice(e[1].length, out.length - e[3].length);
  if (/\s/.test(v) || isPlaceholder(v)) return;
  push(spans, ls + e[1].length, v, 'printed-secret');
}

// OpenVPN's auth-user-pass file (cat /etc/openvpn/auth.txt, or a "# path" header): a user line, then the password line.
const OVPN_AUTH = /^(?:(?:sudo[ \t]+)?cat[ \t]+)?\S{0,200}(?:openvpn\/[\w./-]{0,80}(?:auth|pass|cred|login)[\w.-]{0,40}|auth-user-pass[\w.-]{0,40})[ \t]*$/;

function openvpnAuth(text: string, cmd: string, ls: number, spans: Span[]): void {
  if (!OVPN_AUTH.test(cmd) || ls >= text.length) return;
  const ue = text.indexOf('\n', ls);
  if (ue === -1 || ue - ls > 256) return;
  let pe = text.indexOf('\n', ue + 1);
  if (pe === -1) pe = text.length;
  if (pe - ue > 512) return;
  work.reads += pe - ls;
  const user = text.slice(ls, ue).trim();
  const out = text.slice(ue + 1, pe).replace(/\r$/, '');
  const v = out.trim();
  if (!user || /\s/.test(user) || PROMPT_START.test(text.slice(ls, ue)) || !v || PROMPT_START.test(out) || isPlaceholder(v)) return;
  push(spans, ue + 1 + out.indexOf(v), v, 'openvpn-auth');
}

const GLUED_PROMPT = /^(\S{8,4096}?)[$#%][ \t]{1,4}\S[^\n]{0,400}$/;
const TRAILING_NEWLINE_ECHO = /[ \t]*(?:;|&&)[ \t]*(?:echo|printf[ \t]+(["']?)\\n\1)[ \t]*$/;

/** A notice a CLI prints before its answer: a warning, a deprecation, a note. */
// A notice, or a line of one a CLI prints under a bullet of its own (oclif's ` ›   `, `▸`, `»`).
const NOTICE_LINE = /^[ \t]*(?:[\u203a\u25b8\u00bb\u26a0]|[^\w\s(]{0,3}[ \t]*(?:(?:warning|warn|notice|note|info|deprecat\w*)\b|\(node:\d+\)|npm[ \t]+(?:WARN|notice)\b))/i;

/** The command a container exec runs, past its options and the container's name (or past `--`); else the command itself. */
function insideContainer(cmd: string): string {
  if (!IN_CONTAINER.test(cmd)) return cmd;
  const dashes = cmd.indexOf(' -- ');
  if (dashes > 0) return cmd.slice(dashes + 4).trim();
  const m = /^(?:sudo[ \t]+)?\S+(?:[ \t]+compose)?[ \t]+exec((?:[ \t]+(?:(?:-[uewnc]|--(?:user|env|workdir|namespace|container))[ \t]+\S{1,200}|-[a-zA-Z]{1,4}|--[\w-]{1,30}(?:=\S{0,200})?))*)[ \t]+\S{1,200}[ \t]+(.+)$/.exec(cmd);
  return m ? m[2].trim() : cmd;
}

function findPrintedSecrets(text: string, spans: Span[], has: Set<string>): void {
  let m: RegExpExecArray | null;
  if (has.has('$ ') || has.has('# ') || has.has('> ') || text.includes('% ')) {
    PROMPT.lastIndex = 0;
    while ((m = scan(PROMPT, text))) {
      const cmd = m[1].trim();
      // docker exec api printenv X, kubectl exec pod -- printenv X: the container's printenv.
      const inside = cmd.includes(' printenv ') && IN_CONTAINER.test(cmd) ? cmd.slice(cmd.indexOf(' printenv ') + 1) : cmd;
      const env = PRINTENV.exec(inside);
      if (!env && cmd.startsWith('echo')) echoedSecret(text, cmd, m.index + m[0].length + 1, spans);
      if (cmd.includes('openvpn') || cmd.includes('auth-user-pass')) openvpnAuth(text, cmd, m.index + m[0].length + 1, spans);
      const py = !env && (cmd.includes('print(') || cmd.includes('puts') || cmd.includes('console.log(')) ? PY_PRINT.exec(cmd) : null;
      // `terraform output -raw x; echo`: the trailing echo only ends the line the value was printed on.
      // What runs inside a container (`docker exec app cat …`, `kubectl exec pod -- cat …`) prints the same.
      const probe = insideContainer(cmd).replace(TRAILING_NEWLINE_ECHO, '');
      const prints = (env && isSensitiveName(env[1] ?? env[2])) || PRINTS_SECRET.test(probe) || (py !== null && isSensitiveName(py[1]));
      if (!prints) continue;
      // The first line of its output (pass show: the password, then other fields), past the notices a CLI
      // prints first on stderr (` ›   Warning: …`, `npm WARN …`, `(node:123) …`).
      let ls = m.index + m[0].length + 1;
      if (ls >= text.length) continue;
      let le = text.indexOf('\n', ls);
      if (le === -1) le = text.length;
      for (let skipped = 0; skipped < 3 && le < text.length && NOTICE_LINE.test(text.slice(ls, Math.min(le, ls + 200))); skipped++) {
        ls = le + 1;
        le = text.indexOf('\n', ls);
        if (le === -1) le = text.length;
      }
      work.reads += le - ls;
      const out = text.slice(ls, le).replace(/\r$/, '');
      // A value printed with no line end runs into the next prompt (`terraform output -raw x` then `$ ls`): it stops there.
      const glued = GLUED_PROMPT.exec(out.trim());
      const v = glued ? glued[1] : out.trim();
      if (!v || PROMPT_START.test(out) || v.length > 4096) continue;
      // A URL printed (echo $DATABASE_URL) is judged by the URL rule: its password, if it has one, not the whole URL.
      if (PRINTED_URL.test(v)) continue;
      // A token printed with its scheme (`FlyV1 fm2_…`, `Bearer …`): the word after it.
      const schemed = /^(?:FlyV1|Bearer|Token|Basic)[ \t]+(\S{8,})$/.exec(v);
      if (schemed) {
        push(spans, ls + out.indexOf(schemed[1], out.indexOf(v) + v.length - schemed[1].length), schemed[1], 'printed-secret');
        continue;
      }
      // A passphrase file may hold spaces; other outputs are one word.
      if (/\s/.test(v) && !/^(?:sudo[ \t]+)?cat\b.*pass/.test(cmd) && !SECRET_MANAGER_READ.test(cmd) && !(py && py[2] === ',')) continue;
      if (/^(?:error|warning|usage)\b/i.test(v)) continue;
      if (isFilePath(v)) continue;
      // terraform output x prints "value": the secret is inside the quotes.
      if (v.length > 2 && v.startsWith('"') && v.endsWith('"') && !py) {
        push(spans, ls + out.indexOf(v) + 1, v.slice(1, -1), 'printed-secret');
        continue;
      }
      // print(s.session_key, s.expire_date): the first value printed is the secret.
      const w = py && py[2] === ',' ? v.split(/[ \t]/)[0] : v;
      push(spans, ls + out.indexOf(w), w, 'printed-secret');
    }
  }
  if (text.includes('|')) {
    ECHO_PIPE.lastIndex = 0;
    while ((m = scan(ECHO_PIPE, text))) {
      if (!STDIN_READER.test(m[5])) continue;
      const v = m[1] ?? m[2] ?? m[3] ?? m[4];
      const at = m.index + m[0].indexOf(v, m[0].search(/[ \t]/));
      push(spans, at, v, 'cli-stdin');
    }
  }
  if (text.includes('+ echo') || text.includes('+ printf')) {
    XTRACE_ECHO.lastIndex = 0;
    while ((m = scan(XTRACE_ECHO, text))) {
      if (!STDIN_READER.test(m[5])) continue;
      const v = m[2] ?? m[3] ?? m[4];
      push(spans, m.index + m[0].indexOf(v, m[1].length + 2), v, 'cli-stdin');
    }
  }
  if (has.has('<(echo')) {
    ECHO_SUBST.lastIndex = 0;
    while ((m = scan(ECHO_SUBST, text))) {
      // After an option that names a password: --vault-password-file <(echo x).
      if (!/-{1,2}[\w-]{0,40}pass[\w-]{0,40}$/.test(lineBefore(text, m.index).slice(-90))) continue;
      const v = m[1] ?? m[2] ?? m[3];
      push(spans, m.index + m[0].length - 1 - v.length - (m[3] ? 0 : 1), v, 'cli-stdin');
    }
  }
  if (has.has('<<<')) {
    HERE_STRING.lastIndex = 0;
    while ((m = scan(HERE_STRING, text))) {
      if (!STDIN_READER.test(lineBefore(text, m.index).replace(/^.*?\b(?=sudo\b|[\w-]+passw|chpasswd|kinit)/, ''))) continue;
      const v = m[1] ?? m[2] ?? m[3];
      push(spans, m.index + m[0].length - v.length - (m[3] ? 0 : 1), v, 'cli-stdin');
    }
  }
  if (has.has('send')) {
    EXPECT_SEND.lastIndex = 0;
    while ((m = scan(EXPECT_SEND, text))) push(spans, m.index + m[0].lastIndexOf(m[1]), m[1], 'expect-send');
  }
  if (has.has('AUTH ')) {
    REDIS_AUTH.lastIndex = 0;
    while ((m = scan(REDIS_AUTH, text))) push(spans, m.index + m[0].lastIndexOf(m[1]), m[1], 'redis-auth');
  }
  if (has.has("AUTH'") || has.has('AUTH"')) {
    REDIS_AUTH_CALL.lastIndex = 0;
    while ((m = scan(REDIS_AUTH_CALL, text))) {
      const v = m[5] ?? m[3];
      if (!isPlaceholder(v)) push(spans, m.index + m[0].length - 1 - v.length, v, 'redis-auth');
    }
  }
  if (has.has(') "')) {
    REDIS_CONFIG.lastIndex = 0;
    while ((m = scan(REDIS_CONFIG, text))) if (isSensitiveName(m[1]) && !isPlaceholder(m[2])) push(spans, m.index + m[0].length - 1 - m[2].length, m[2], 'redis-config');
  }
  if (has.has('db.auth(')) {
    DB_AUTH.lastIndex = 0;
    while ((m = scan(DB_AUTH, text))) push(spans, m.index + m[0].length - 1 - m[2].length, m[2], 'db-auth');
  }
  if (text.includes('REG_')) {
    // reg query: `    ApiKey    REG_SZ    value` (a registry value's name, its type, its data).
    REG_VALUE.lastIndex = 0;
    while ((m = scan(REG_VALUE, text))) if (isSensitiveName(m[1]) && isSensitiveAssignment(m[1], m[2])) push(spans, m.index + m[0].length - m[2].length, m[2], 'registry');
  }
  if (text.includes('"name"') && text.includes('"value"')) {
    NAME_THEN_VALUE_JSON.lastIndex = 0;
    while ((m = scan(NAME_THEN_VALUE_JSON, text))) {
      const name = m[1].replace(/^.*\//, '');
      if (isSensitiveName(name) && isSensitiveAssignment(name, m[2])) push(spans, m.index + m[0].length - 1 - m[2].length, m[2], 'name-value');
    }
    VALUE_THEN_NAME_JSON.lastIndex = 0;
    while ((m = scan(VALUE_THEN_NAME_JSON, text))) {
      const name = m[2].replace(/^.*\//, '');
      const at = m.index + m[0].indexOf(m[1], m[0].indexOf('"value"') + 7);
      if (isSensitiveName(name) && isSensitiveAssignment(name, m[1])) push(spans, at, m[1], 'name-value');
    }
  }
  if (has.has('"keyName"')) {
    KEYNAME_VALUE.lastIndex = 0;
    while ((m = scan(KEYNAME_VALUE, text))) push(spans, m.index + m[0].length - 1 - m[1].length, m[1], 'key-list');
  }
  if (has.has('"Secret"') && /"kind"[ \t]{0,3}:[ \t]{0,3}"Secret"/.test(text)) {
    JSON_DATA.lastIndex = 0;
    while ((m = scan(JSON_DATA, text))) {
      const from = m.index + m[0].length;
      let to = text.indexOf('}', from);
      if (to === -1 || to - from > 65536) to = Math.min(text.length, from + 65536);
      work.reads += to - from;
      const block = text.slice(from, to);
      MAP_VALUE.lastIndex = 0;
      let v: RegExpExecArray | null;
      while ((v = MAP_VALUE.exec(block))) push(spans, from + v.index + v[0].length - 1 - v[1].length, v[1], 'k8s-secret');
    }
  }
  if (text.includes('>') && (text.includes('echo') || text.includes('printf'))) {
    ECHO_TO_FILE.lastIndex = 0;
    while ((m = scan(ECHO_TO_FILE, text))) {
      const v = m[1] ?? m[2] ?? m[3];
      const base = m[5].replace(/^.*\//, '').replace(/^\./, '').replace(/\.(?:txt|key|pem|secret|conf|cfg)$/i, '');
      if (!isSensitiveName(base) || isPlaceholder(v) || v.startsWith('$')) continue;
      push(spans, m.index + m[0].indexOf(v, 5), v, 'written-secret');
    }
  }
  if (has.has('##[debug]')) {
    // GitHub Actions' step debug log evaluates `secrets.X` and prints the result (`##[debug]=> 'v'`, `##[debug]Result: 'v'`).
    GHA_SECRET_EVAL.lastIndex = 0;
    while ((m = scan(GHA_SECRET_EVAL, text))) {
      let at = text.indexOf('\n', m.index);
      for (let k = 0; k < 12 && at !== -1; k++) {
        const ls = at + 1;
        let le = text.indexOf('\n', ls);
        if (le === -1) le = text.length;
        const line = text.slice(ls, le);
        work.reads += line.length;
        if (!line.startsWith('##[debug]')) break;
        const r = GHA_RESULT.exec(line);
        if (r && !isPlaceholder(r[1]) && r[1] !== 'Object') push(spans, ls + line.indexOf(r[1], 9), r[1], 'ci-debug');
        if (line.startsWith('##[debug]Result:')) break;
        at = le === text.length ? -1 : le;
      }
    }
  }
  if (has.has('>>>') || has.has('##[debug]') || has.has('=> ') || has.has('Out[')) {
    // Line by line: a prompt line (REPL_PROMPT), then the line after it. Only lines holding a piece of a prompt
    // (REPL_PROMPT_PIECE, found by one scan) are sliced and tested, not every line of the text.
    work.reads += text.length;
    let done = -1; // the start of the last line tested
    REPL_PROMPT_PIECE.lastIndex = 0;
    while (REPL_PROMPT_PIECE.test(text)) {
      const at = REPL_PROMPT_PIECE.lastIndex - 1;
      const ls = text.lastIndexOf('\n', at) + 1;
      let le = text.indexOf('\n', at);
      if (le === -1) le = text.length;
      REPL_PROMPT_PIECE.lastIndex = le;
      if (ls === done) continue;
      done = ls;
      const prev = withoutCr(text.slice(ls, le));
      if (prev.length > 600 || !REPL_PROMPT.test(prev)) continue;
      // The next line, if the text goes on past this line's end.
      const ns = le + 1;
      if (ns >= text.length) continue;
      let ne = text.indexOf('\n', ns);
      if (ne === -1) ne = text.length;
      const l = withoutCr(text.slice(ns, ne));
      if (l.length > 600) continue;
      const r = READS_SECRET.exec(prev);
      const sv = r && isSensitiveName(r[1]) ? SHOWN_VALUE.exec(l) : null;
      if (sv) push(spans, ns + l.lastIndexOf(sv[2]), sv[2], 'shown-secret');
    }
  }
}

const PROMPT_START = /^[ \t]{0,4}(?:[$#%>]|PS [^>\n]{0,80}>)[ \t]/;
