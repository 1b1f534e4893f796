// Secrets found by where they stand rather than by their shape: URL
// userinfo, .netrc and .pgpass lines, credential CSVs and key/value tables
// (credentials.csv, Vault's table output), and prose ("the password is X").
import { SECRET_COOKIE } from './headers';
import { isFilePath, LOCAL_PASSWORD_WORDS, isPlaceholder, isSensitiveAssignment, isSensitiveName, isVersionOrOption, maybeSensitiveName } from './names';
import { scanLines } from './anchored';
import { lineEnd, MAX_VALUE, OPENS_PLACEHOLDER, readValue, type Span } from './text';
import { scan, work } from './work';

/** 1: may stand in a scheme ([a-zA-Z0-9+._-]); 2: may start one (a letter). 3: a word character that may not ([0-9_]). */
const SCHEME_CHAR = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[a-zA-Z]/.test(ch)) SCHEME_CHAR[c] = 2;
  else if (/[0-9]/.test(ch)) SCHEME_CHAR[c] = 1;
  else if (/[+.-]/.test(ch)) SCHEME_CHAR[c] = 1;
}
const isWordChar = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;

/**
 * Where the scheme before the `://` at `sep` starts, or -1: what /\b[a-zA-Z][a-zA-Z0-9+._-]{1,20}:\/\//
 * would match there (its leftmost start: a letter at a word boundary, 2 to 21 characters before),
 * found from the literal, which is far faster than trying the pattern at every position.
 */
export function schemeStart(text: string, sep: number, from: number): number {
  let runStart = sep;
  while (runStart > from && sep - runStart < 21) {
    const c = text.charCodeAt(runStart - 1);
    if (c >= 128 || (SCHEME_CHAR[c] === 0 && c !== 95)) break;
    runStart--;
  }
  for (let p = runStart; p <= sep - 2; p++) {
    if (SCHEME_CHAR[text.charCodeAt(p)] !== 2) continue;
    if (p > 0 && isWordChar(text.charCodeAt(p - 1))) continue;
    return p;
  }
  return -1;
}
const HOST = /^(?:[A-Za-z0-9._~-]{1,253}|\[[0-9A-Fa-f:.]{2,60}\])(?::\d{0,5})?$/;
// Per-match and per-line patterns are module constants throughout: a regex literal in a function is a
// new RegExp object each time it runs, and these run per URL, per prose match and per line.
const KEY_CHARS = /^[A-Za-z0-9_-]+$/;
const DIGIT = /[0-9]/;
const LETTER = /[A-Za-z]/;
const PATH_CHAR = /[/?#]/;
const PORT_THEN_PATH = /^\d{1,5}(?:[/?#]|$)/;
const URL_END = new Uint8Array(65536);
for (const c of ' \t\n\r"\'`<>\\') URL_END[c.charCodeAt(0)] = 1;

/**
 * scheme://user:password@host: the userinfo runs to the last @ before the
 * host, as agents write it (a password may hold # / ! % $ @), not as RFC
 * 3986 parses it. Of several @, the last one followed by a dotted host, a
 * port or localhost wins; else the first one followed by any host.
 */
export function findUrlCredentials(text: string, spans: Span[]): void {
  let next = 0;
  for (let sep = text.indexOf('://'); sep !== -1; sep = text.indexOf('://', Math.max(sep + 1, next))) {
    work.reads += sep - next + 1;
    if (sep < next || schemeStart(text, sep, next) === -1) continue;
    const a = sep + 3;
    const stop = Math.min(text.length, a + 1024);
    let e = a;
    const ats: number[] = [];
    for (; e < stop; e++) {
      const c = text.charCodeAt(e);
      if (URL_END[c] === 1) break;
      if (c === 64 && ats.length < 32) ats.push(e);
    }
    work.reads += 2 * (e - a) + 1; // forward here, backward for the hosts below
    // The URL is read once: whatever it holds, the scan goes on after it.
    next = Math.max(a, e);
    if (ats.length === 0) continue;
    let firstValid = -1;
    let lastPreferred = -1;
    // Each @'s host runs to the next / ? # : found right to left, in one pass.
    let delim = e;
    const hostEnd = new Map<number, number>();
    for (let k = e - 1, n = ats.length - 1; k >= a && n >= 0; k--) {
      const c = text[k];
      if (c === '/' || c === '?' || c === '#') delim = k;
      if (k === ats[n]) hostEnd.set(ats[n--], delim);
    }
    for (const at of ats) {
      const host = text.slice(at + 1, hostEnd.get(at));
      // No host at all, the @ ending the URL (Celery's sqs://KEY:SECRET@): the userinfo is all there is.
      if (host === '' && hostEnd.get(at) === e && at === e - 1 && text.lastIndexOf(':', at) > a) {
        if (firstValid === -1) firstValid = at;
        continue;
      }
      // Oracle's connect descriptor in place of a host (oracle://u:p@(DESCRIPTION=(ADDRESS=…))).
      if (/^\((?:DESCRIPTION|ADDRESS)/i.test(host)) {
        if (firstValid === -1) firstValid = at;
        lastPreferred = at;
        continue;
      }
      // A host list (mongodb://u:p@a,b,c:27017, kafka brokers): every host valid.
      if (host.length > 1024 || !host.split(',', 17).every((h) => h.length <= 260 && HOST.test(h))) continue;
      if (firstValid === -1) firstValid = at;
      if (host.includes('.') || host.includes(':') || host.startsWith('[') || host === 'localhost') lastPreferred = at;
    }
    const at = lastPreferred !== -1 ? lastPreferred : firstValid;
    if (at === -1) continue;
    const userinfo = text.slice(a, at);
    if (userinfo.startsWith('[REDACTED')) continue;
    const colon = userinfo.indexOf(':');
    if (colon === -1) {
      // A key as the whole userinfo (a Sentry DSN's public key, https://<token>@host): long, letters and digits, no name.
      if (userinfo.length >= 20 && userinfo.length <= 256 && KEY_CHARS.test(userinfo) && DIGIT.test(userinfo) && LETTER.test(userinfo) && !isPlaceholder(userinfo))
        spans.push({ start: a, end: at, rule: 'url-credentials' });
      continue;
    }
    const user = userinfo.slice(0, colon);
    const password = userinfo.slice(colon + 1);
    // host:8080/path@x is a port and a path, unless the @ is followed by a real host and what comes before the
    // colon is a user, not a host (mongodb://app:9/Ek#x@db.example.com: a password that starts with digits).
    const portThenPath = PORT_THEN_PATH.test(password) && (at !== lastPreferred || user.includes('.') || user === 'localhost' || !/\.[A-Za-z]|:\d|^localhost/.test(text.slice(at + 1, hostEnd.get(at))));
    if (PATH_CHAR.test(user) || portThenPath || !password || isPlaceholder(password)) continue;
    spans.push({ start: a + colon + 1, end: at, rule: 'url-credentials' });
    // A key as the user (a legacy Sentry DSN's public key beside its secret): long, letters and digits, no name.
    if (user.length >= 20 && user.length <= 256 && KEY_CHARS.test(user) && DIGIT.test(user) && LETTER.test(user) && !isPlaceholder(user)) spans.push({ start: a, end: a + colon, rule: 'url-credentials' });
  }
}

// .netrc on one line: a password word no more than 300 characters after machine/default/login on the same line.
// One pass finds both anchors; the keyword last seen decides (a lazy gap per keyword would rescan 300 characters).
const NETRC_INLINE = /\b(?:(machine|default|login)\b|(?:password|passwd)[ \t]{1,8}(\S{1,256}))/g;
const TRAILING_PUNCTUATION = /[.,;:]+$/;
const TRAILING_PUNCTUATION_OR_PAREN = /[.,;:)]+$/;
const TRAILING_QUOTES = /["'`]+$/;
const NEXT_PAIR = /;[ ]?[A-Za-z][\w ]{0,40}=.*$/;
const LEADING_QUOTE = /^["'`]/;
const CLOSING_TYPOGRAPHIC_QUOTE = /[\u00bb\u201c\u201d]$/;
const NOT_LETTER = /[^A-Za-z]/;
const LOWER = /[a-z]/;
const UPPER = /[A-Z]/;
const PROSE =
  /\b(?:password|passphrase|passcode|passwd|pin|secret|token|api[ _-]?key|access[ _-]key|private[ _-]key|(?:unseal|recovery)[ _-]key(?: \d{1,2})?|(?:initial )?root[ _-]token|pat)(?:[ \t]{1,3}(?:for|of|to|di|de|del|du|für|voor|da|do)[ \t]{1,3}[\w.@/-]{1,40}(?:[ \t][\w.@/-]{1,40}){0,2})?[ \t]{0,3}(?:is|was|=|:|set to|changed to|reset to|è|é|est|es|ist|är|era|war)[ \t]{0,3}:?[ \t]{0,3}(["'`]?)(\S{3,256})/gi;
// The same in other languages (localized program output), with a few words between the word and its colon.
// The words come from LOCAL_PASSWORD_WORDS (names.ts), longest first so a longer spelling wins.
const LOCAL_WORDS = [...LOCAL_PASSWORD_WORDS].sort((a, b) => b.length - a.length).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
// The value after a colon, a verb (das Passwort … lautet X, le mot de passe est X) or a topic particle (비밀번호는 X, パスワードは X).
const LOCAL_PROSE = new RegExp(`(?:${LOCAL_WORDS.join('|')})[^:=\\n]{0,40}?(?:[:=\\uff1a]|[ \\t](?:lautet|ist|est|es|é|è|är|er|jest|je|on|is|là|adalah|to)[ \\t]|(?:는|은|は|が|是|为|為)[ \\t]?)[ \\t\\u00a0]{0,3}(["'\`\\u00ab\\u201e\\u201c]?)[ \\t\\u00a0]{0,2}(\\S{3,256})`, 'gi');
// The value right after the word, as languages that put the verb last or none say it (`मेरा पासवर्ड X है`, Turkish
// `Şifrem X`: the word with a possessive ending). Only a value with a digit or a symbol, read by the loop below.
const LOCAL_BARE = new RegExp(`(?:${LOCAL_WORDS.join('|')})[a-zçğıöşü]{0,3}[ \\t\\u00a0]{1,2}()(?=[^\\s]*[0-9#$%&*!@^])([^\\s,，。、]{6,256})`, 'gi');
const LOCAL_HINT = new RegExp(`[^\\x00-\\x7f]|${LOCAL_PASSWORD_WORDS.filter((w) => /^[\x00-\x7f]+$/.test(w)).join('|')}`, 'i');
// A password named in a sentence with no verb before its value: `failed for user x with password y`, `using token y`.
const WITH_PROSE = /\b(?:with|using|via)[ \t](?:the[ \t])?(?:password|passphrase|passwd|passcode|token|secret|api[ _-]?key)[ \t]{1,3}()(\S{3,256})/gi;
// A password a program made and printed after the words (`A temporary password is generated for root@localhost: x`),
// or on the next line (`Password for the [elastic] user successfully reset.` / `New value: x`).
const MADE_PROSE = /\b(?:password|passphrase|passwd|token|secret)\b[^:\n]{0,60}\b(?:generated|created|issued|reset|rotated|changed)\b[^:\n]{0,60}:[ \t]{1,3}()(\S{4,256})/gi;
const MADE_NEXT_LINE = /\b(?:password|passphrase|passwd|token|secret)\b[^\n]{0,80}\b(?:generated|created|issued|reset|rotated|changed)\b[^\n]{0,40}\r?\n[ \t]{0,8}(?:new|generated|temporary|initial)[ \t]{1,3}(?:value|password|passphrase|token|secret)[ \t]{0,3}:[ \t]{0,3}()(\S{4,256})/gi;
const MADE_HINT = /generated|created|issued|reset|rotated|changed/i;
// A user and a password side by side in a sentence: `log in as ops / X`, `creds: ci-bot / X`, `with \`admin\` / \`X\``, `(admin@x.dev / X)`.
const USER_PASS_PROSE = /\b(?:log(?:ged)?[ -]?in(?:[ \t]{1,3}(?:as|with))?|sign(?:ed)?[ -]?in(?:[ \t]{1,3}(?:as|with))?|creds?|credentials|login|user|account|with)[ \t]{0,3}:?[ \t]{1,3}[(`'"]?[\w.@+-]{1,64}[`'"]?[ \t]{1,3}\/[ \t]{1,3}([`'"]?)(\S{4,256})/gi;
const PROSE_ONLY = [PROSE, WITH_PROSE, USER_PASS_PROSE];
const PROSE_AND_LOCAL = [PROSE, WITH_PROSE, USER_PASS_PROSE, LOCAL_PROSE, LOCAL_BARE];
/** A structure after the name (`password: {type: string}`, `password: [required]`): a schema or a list, judged by its members elsewhere. */
const STRUCTURE_VALUE = /^[{[][ \t]{0,3}[A-Za-z_][\w-]{0,40}[ \t]{0,3}[:,\]}]/;

/** Per line: .netrc `password X`, .pgpass host:port:db:user:password, Vault-style `name   value` rows, credential CSV columns. */
export function findLineSecrets(text: string, spans: Span[]): void {
  NETRC_INLINE.lastIndex = 0;
  let m: RegExpExecArray | null;
  let keywordEnd = -1;
  while ((m = scan(NETRC_INLINE, text))) {
    if (m[1]) {
      keywordEnd = m.index + m[0].length;
      continue;
    }
    const v = m[2];
    if (keywordEnd === -1 || m.index - keywordEnd > 300) continue;
    work.reads += m.index - keywordEnd;
    if (text.slice(keywordEnd, m.index).includes('\n')) continue;
    if (isPlaceholder(v)) continue;
    const start = m.index + m[0].length - v.length;
    spans.push({ start, end: start + v.length, rule: 'netrc' });
  }
  const prose = LOCAL_HINT.test(text) ? PROSE_AND_LOCAL : PROSE_ONLY;
  // A password a program made is read only where the words that say so are (two more scans of every text otherwise).
  const made = MADE_HINT.test(text) ? [MADE_PROSE, MADE_NEXT_LINE] : [];
  for (const re of made.length ? [...prose, ...made] : prose) {
    re.lastIndex = 0;
    while ((m = scan(re, text))) {
      // Inside an identifier (arn:…:secret:name, /secret/path) the word is a part, not prose.
      const before = m.index > 0 ? text.charCodeAt(m.index - 1) : 32;
      if (before === 58 || before === 47) continue;

      let v = m[2];
      let q = m[1];
      let start = m.index + m[0].length - v.length;
      // A quote that the value pattern took ("{{ x }}" is too short a value without it): the value is quoted.
      if (!q && LEADING_QUOTE.test(v)) {
        q = v[0];
        start++;
        v = v.slice(1);
      }
      if (q === '\u00ab' || q === '\u201e' || q === '\u201c') v = v.replace(CLOSING_TYPOGRAPHIC_QUOTE, '');
      else if (q) {
        const close = text.indexOf(q, start);
        const end = close === -1 || close - start > MAX_VALUE ? start + v.length : close;
        v = text.slice(start, end);
      } else {
        // Quotes and the sentence's punctuation in either order: `was regenerated."`, `is "x".`
        // A connection string goes on after the value (Password={x};Encrypt=True;): the value ends at its `;`.
        const trimmed = v.replace(NEXT_PAIR, '').replace(TRAILING_QUOTES, '');
        v = (trimmed.includes('(') ? trimmed.replace(TRAILING_PUNCTUATION, '') : trimmed.replace(TRAILING_PUNCTUATION_OR_PAREN, '')).replace(TRAILING_QUOTES, '');
      }
      if (!q && STRUCTURE_VALUE.test(text.slice(start, start + 48))) continue;
      // A word of prose (required, missing, incorrect) is not a password: a value has a digit, a symbol or mixed case.
      if (!DIGIT.test(v) && !NOT_LETTER.test(v) && !(LOWER.test(v) && UPPER.test(v.slice(1)))) continue;
      if (isPlaceholder(v)) continue;
      // A file that holds the secret (--from-file=password=./db-password.txt), not the secret.
      if (isFilePath(v)) continue;
      // A placeholder with a space in it (!Ref DbPassword, <your key here>) is read to the line end.
      if (!q && OPENS_PLACEHOLDER[v.charCodeAt(0)] === 1 && text.charCodeAt(start + v.length) === 32 && isPlaceholder(text.slice(start, lineEnd(text, start, 256)))) continue;
      spans.push({ start, end: start + v.length, rule: 'prose' });
    }
  }

  findContextSecrets(text, spans);
  if (text.includes('--  ') || text.includes('-- -')) findColumnTables(text, spans);
  pipeSecretRow = false;
  pipeDigestTable = false;

  let table: { sep: string; cols: boolean[]; n: number; keyOnly?: boolean } | undefined;
  let lineStart = 0;
  while (lineStart <= text.length) {
    let nl = text.indexOf('\n', lineStart);
    if (nl === -1) nl = text.length;
    const end = nl > lineStart && text[nl - 1] === '\r' ? nl - 1 : nl;
    work.reads += 4 * (nl - lineStart + 1); // found, sliced, and read by up to three line patterns
    if (end === lineStart) pipeDigestTable = false; // a blank line ends a table
    if (end - lineStart <= 4096) table = line(text, lineStart, end, spans, table);
    else table = undefined;
    lineStart = nl + 1;
  }
}

// SQL that sets a password: IDENTIFIED BY '…', [WITH] [ENCRYPTED] PASSWORD '…', SET PASSWORD = PASSWORD('…').
const SQL_PASSWORD = /\b(?:IDENTIFIED[ \t]{1,8}(?:WITH[ \t]{1,8}[A-Za-z0-9_]{1,40}[ \t]{1,8})?BY|PASSWORD)[ \t]{0,8}(?:=[ \t]{0,8})?(?:PASSWORD[ \t]{0,4})?\(?[ \t]{0,4}'((?:[^'\\\n]|\\.|''){1,256})'|\bIDENTIFIED[ \t]{1,8}(?:WITH[ \t]{1,8}[A-Za-z0-9_]{1,40}[ \t]{1,8})?BY[ \t]{0,8}"((?:[^"\\\n]|\\.){1,256})"/gi;
// A command line that decodes a stored secret (kubectl get secret … | base64 -d): the lines it prints are the secret.
const DECODE_SECRET = /^[ \t]{0,4}[$#>%][ \t]{1,4}[^\n]{0,400}$/;
const DECODE_PIPE = /\|[ \t]{0,4}base64[ \t]{1,4}(?:-d|-D|--decode)\b/;
// kubectl get secret … -o jsonpath='{.data.x}' prints the stored (base64) secret itself.
const JSONPATH_DATA = /\bget[ \t]{1,4}secrets?\b[^\n|]{0,200}jsonpath=["']?\{\.data\b/;
const NAMES_SECRET = /secret|passw|token|\.data\.|credential|api[_-]?key/i;
// ftp and lftp scripts: `user NAME PASSWORD`.
const FTP_USER = /^[ \t]{0,8}user[ \t]{1,8}\S{1,64}[ \t]{1,8}(\S{1,256})[ \t]{0,8}$/gm;
const FTP_USER_ANCHOR = /user[ \t]/g;
/** For the differential test of scanLines. */
export const FTP_USER_PATTERN: [RegExp, RegExp] = [FTP_USER, FTP_USER_ANCHOR];
// Terraform state of a random_password: its `result` is the password.
const TF_RESULT = /"result"[ \t]{0,3}:[ \t]{0,3}"((?:[^"\\\n]|\\.){1,512})"|\bresult[ \t]{1,8}=[ \t]{1,4}"((?:[^"\\\n]|\\.){1,512})"/g;

function firstDecode(text: string): number {
  return nextDecode(text, 0);
}

// The next of each word found so far, for the text last searched: a word the text holds no more of
// would otherwise be searched for to the end of the text again after every `base64`.
let decodeText = '';
let nextBase64 = -1;
let nextJsonpath = -1;

/** The next `base64` or `jsonpath=` at or after i (i never decreases between calls on one text, but for i = 0). */
function nextDecode(text: string, i: number): number {
  if (text !== decodeText || i === 0) {
    decodeText = text;
    nextBase64 = text.indexOf('base64', i);
    nextJsonpath = text.indexOf('jsonpath=', i);
  }
  if (nextBase64 !== -1 && nextBase64 < i) nextBase64 = text.indexOf('base64', i);
  if (nextJsonpath !== -1 && nextJsonpath < i) nextJsonpath = text.indexOf('jsonpath=', i);
  const a = nextBase64;
  const b = nextJsonpath;
  return a === -1 ? b : b === -1 ? a : Math.min(a, b);
}

const PUBLIC_PEM = /^-----BEGIN (?:CERTIFICATE|PUBLIC KEY|X509 CRL|CERTIFICATE REQUEST|TRUSTED CERTIFICATE)-----/;

/** A pipeline that ends by keeping only the names of what it read (`| jq keys`, `| cut -d= -f1`): its output holds no value. */
const KEYS_ONLY = /\|[ \t]{0,3}(?:jq[ \t]{1,3}(?:-[a-zA-Z]{1,4}[ \t]{1,3}){0,3}['"]?(?:keys|keys_unsorted|keys\[\]|to_entries\[\]\.key)['"]?|cut[ \t]{1,3}-d[ \t]?['"]?[=:]['"]?[ \t]{1,3}-f[ \t]?1|awk[ \t]{1,3}-F[ \t]?['"]?[=:]['"]?[ \t]{1,3}['"]\{[ \t]{0,3}print[ \t]{1,3}\$1[ \t]{0,3}\}['"])[ \t]{0,8}$/;

/** Secrets that their surroundings reveal: SQL password clauses, decoded secret output, ftp scripts, random_password results. */
function findContextSecrets(text: string, spans: Span[]): void {
  let m: RegExpExecArray | null;
  if (text.includes("'") || text.includes('"')) {
    SQL_PASSWORD.lastIndex = 0;
    while ((m = scan(SQL_PASSWORD, text))) {
      const v = m[1] ?? m[2];
      // A password may start with @ (no file reference in SQL, as curl's -d @file is).
      if (isPlaceholder(v) && !v.startsWith('@')) continue;
      // 'password' in quotes is a quoted word (<set to the key 'password' in secret 'db'>), not the SQL keyword.
      if (m.index > 0 && /["'`]/.test(text[m.index - 1])) continue;
      const start = m.index + m[0].length - 1 - v.length;
      spans.push({ start, end: start + v.length, rule: 'sql-password' });
    }
  }
  for (let i = firstDecode(text); i !== -1; i = nextDecode(text, i + 6)) {
    const ls = text.lastIndexOf('\n', i) + 1;
    let le = text.indexOf('\n', i);
    if (le === -1) le = text.length;
    work.reads += le - ls;
    const l = text.slice(ls, le);
    if (!DECODE_SECRET.test(l) || !(DECODE_PIPE.test(l) || JSONPATH_DATA.test(l)) || !NAMES_SECRET.test(l) || KEYS_ONLY.test(l)) {
      i = Math.max(i, le - 6);
      continue;
    }
    // Its output: the lines up to the next prompt or blank line (at most 8).
    let s = le + 1;
    for (let k = 0; k < 8 && s < text.length; k++) {
      let e = text.indexOf('\n', s);
      if (e === -1) e = text.length;
      const out = text.slice(s, e).trim();
      work.reads += e - s;
      if (!out || DECODE_SECRET.test(text.slice(s, e))) break;
      // A certificate or a public key decoded (`{.data.tls\.crt}`): public, not the secret's value.
      if (k === 0 && PUBLIC_PEM.test(out)) break;
      if (!isPlaceholder(out)) {
        const at = text.indexOf(out, s);
        spans.push({ start: at, end: at + out.length, rule: 'decoded-secret' });
      }
      s = e + 1;
    }
    i = Math.max(i, s - 6);
  }
  if (text.includes('ftp')) {
    scanLines(FTP_USER, FTP_USER_ANCHOR, text, (c) => {
      if (isPlaceholder(c[1])) return;
      const start = c.index + c[0].lastIndexOf(c[1]);
      spans.push({ start, end: start + c[1].length, rule: 'ftp-user' });
    });
  }
  if (text.includes('random_password')) {
    TF_RESULT.lastIndex = 0;
    while ((m = scan(TF_RESULT, text))) {
      const v = m[1] ?? m[2];
      if (isPlaceholder(v)) continue;
      const start = m.index + m[0].length - 1 - v.length;
      spans.push({ start, end: start + v.length, rule: 'terraform-result' });
    }
  }
}

const HEX_PAIRS = /^[0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2}){3,63}$/;
const PGPASS = /^[ \t]{0,4}[A-Za-z0-9._*\[\]-]{1,253}:(?:\d{1,5}|\*):[^:\s]{1,128}:[^:\s]{1,128}:(\S{1,256})[ \t]{0,4}$/;
// A name may carry a namespace (`app:dbPassword` in pulumi config): the part after the last colon is the name.
const ROW = /^[ \t]{0,8}(?:[-*+~][ \t]{1,3})?(?:[A-Za-z_][\w.-]{0,63}:)?([A-Za-z_][A-Za-z0-9_.-]{0,63}(?: [A-Za-z][A-Za-z0-9_.-]{0,30}){0,2})[ \t]{2,40}(\S[^\n]{0,511})$/;
// gh secret list, doppler secrets: a secret's name, then when it changed (Updated 2024-01-02, Updated about 2 months ago).
const LISTED_AT = /^(?:updated|created|modified|rotated|last used|expires)[ \t]{1,4}(?:\d{4}-\d\d-\d\d\S{0,20}|(?:about |over |almost |less than )?(?:an?|\d{1,4}) (?:second|minute|hour|day|week|month|year)s? ago)$/i;
const NETRC_LINE = /^[ \t]{0,16}(?:password|passwd)[ \t]{1,16}(\S{1,256})[ \t]{0,16}$/;
const NETRC_QUOTED = /(?:^|[ \t])(?:password|passwd)[ \t]{1,16}"((?:[^"\\\n]|\\.){1,256})"[ \t]{0,16}$/;
const SEPS = [',', '\t', '|', ';'];
// The value may hold single spaces (`| DB_PASSWORD | Ws!Shell Pw 9 |`): words joined by one blank, then the cell's padding.
const SPACED_SECRET = /[^A-Za-z0-9 ]|[a-z][A-Z]|[A-Za-z]\d|\d[A-Za-z]/;
const PIPE_ROW = /^[ \t]{0,8}\|?[ \t]{0,4}([A-Za-z_][\w.-]{0,63}(?: [A-Za-z][\w.-]{0,30}){0,3})[ \t]{0,60}\|[ \t]{0,60}([^\s|]{1,4096}(?: [^\s|]{1,256}){0,8})[ \t]{0,60}(?:\|[^\n]{0,400})?$/;
const PIPE_CONT = /^[ \t]{0,8}\|?[ \t]{1,80}\|[ \t]{0,60}([^\s|]{4,4096})[ \t]{0,60}\|?[ \t]*$/;
let pipeSecretRow = false;
/** A cell that is a source or text file of the project (src/auth/token.ts): it names a file, not a secret. */
const SOURCE_FILE = /\/[\w.@-]{0,64}\.(?:tsx?|jsx?|mjs|cjs|py|go|rb|java|kt|rs|c|h|cc|cpp|cs|php|swift|json|ya?ml|toml|ini|md|txt|sh|html|css|sql)$/;
/** Inside a | table whose value column is a digest (the header said so): until a blank line. */
let pipeDigestTable = false;
const DIGEST_HEADER = /^[ \t]{0,8}\|?[ \t]{0,4}NAME[ \t]{0,60}\|[ \t]{0,60}(?:DIGEST|HASH|CHECKSUM|SHA(?:1|256|512)?|FINGERPRINT|ETAG)\b/;

const WORD_CHAR = new Uint8Array(65536);
for (let c = 0; c < 128; c++) if (/[\w.-]/.test(String.fromCharCode(c))) WORD_CHAR[c] = 1;

/** The line's first word (after indentation) may be a sensitive name: only then is it read as a directive. */
function firstWordMaybeSensitive(text: string, start: number, end: number): boolean {
  let s = start;
  while (s < end && s - start < 16 && (text.charCodeAt(s) === 32 || text.charCodeAt(s) === 9)) s++;
  let e = s;
  while (e < end && e - s < 64 && WORD_CHAR[text.charCodeAt(e)] === 1) e++;
  // DIRECTIVE needs a blank and a value of at least six characters after the word.
  return e > s && end - e >= 7 && (text.charCodeAt(e) === 32 || text.charCodeAt(e) === 9) && maybeSensitiveName(text, s, e);
}
// A column type in DDL (`api_token varchar(64),`), not a value.
const SQL_TYPE = /^[A-Za-z_]{2,20}(?:\(\d{1,5}(?:,\d{1,3})?\))?(?:\[\])?,?$/;
const QUOTED_DIRECTIVE = /^[ \t]{0,16}([A-Za-z_][\w.-]{1,63})[ \t]{1,16}(["'])([^"'\n]{3,512})\2[ \t]{0,8}$/;
const DIRECTIVE = /^[ \t]{0,16}([A-Za-z_][\w.-]{1,63})[ \t]{1,16}("?)([^\s"]{6,512})\2[ \t]{0,8}$/;
const MULTI_COLUMN = /[^ \t][ \t]*(?:  |\t)[ \t]*[^ \t]|^[|│]|^(?:requisite|required|sufficient|optional|include|substack|\[[^\]]{1,80}\])[ \t]|\.so\b/;
const HEADER_CHARS = /^[A-Za-z0-9 _."'\t,|;-]{3,4096}$/;
// What a line must start with for a line pattern to match: after its indent, a character of PGPASS's first class
// (which holds NETRC_LINE's p and the first name characters of ROW, PIPE_ROW and DIRECTIVE), ROW's bullets + and ~,
// or the | of PIPE_ROW and PIPE_CONT; for a header row, a HEADER_CHARS character.
const LINE_PATTERN_FIRST = new Uint8Array(65536);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._*[]-+~|') LINE_PATTERN_FIRST[c.charCodeAt(0)] = 1;
const HEADER_FIRST = new Uint8Array(65536);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 _."\'\t,|;-') HEADER_FIRST[c.charCodeAt(0)] = 1;
const TRAILING_BLANKS = /[ \t]+$/;
const EMPTY_CELL = /^(?:n\/a|-+|<none>|\d+ bytes)$/i;

/** Column and field types: a schema (`api_token   TEXT,`, Go's `Token  string \`json:"token"\``) names the field, it holds no value. */
const TYPE_WORDS = new Set([
  'text', 'varchar', 'nvarchar', 'char', 'nchar', 'character', 'citext', 'clob', 'blob', 'bytea', 'binary', 'varbinary', 'int', 'integer', 'bigint', 'smallint', 'tinyint',
  'serial', 'bigserial', 'uuid', 'bool', 'boolean', 'json', 'jsonb', 'xml', 'date', 'datetime', 'timestamp', 'timestamptz', 'time', 'interval', 'numeric', 'decimal',
  'float', 'double', 'real', 'money', 'inet', 'string', 'str', 'int32', 'int64', 'uint', 'uint32', 'uint64', 'float32', 'float64', 'byte', 'bytes', 'rune', 'number',
  'any', 'object', 'secretstr', 'securestring', 'optional', 'option', 'vec',
]);
const TYPE_HEAD = /^[*[\]]{0,3}([A-Za-z][A-Za-z0-9]{0,15})(?:\(\d{1,5}(?:,\d{1,3})?\)|<[\w, ]{1,40}>|\[\])?(?=$|[,;`{ \t])/;

function declaresType(v: string): boolean {
  const m = TYPE_HEAD.exec(v);
  return m !== null && TYPE_WORDS.has(m[1].toLowerCase());
}
const RULE_LINE = /^[-=+| \t]+$/;
const EDGE_QUOTES = /^["']|["']$/g; // with replace only, which resets lastIndex
const COLUMN_NAME = /^[A-Za-z][A-Za-z0-9 _.-]{0,40}$/;
const ID_COLUMN = /\bid$/i;
const SCHEMA_COLUMN = /^[a-z][a-z0-9_]{2,63}$/;
const KEY_NAME_COLUMN = /^(?:key|secret|token|password|credential)[ _-]?name$/i;
const VALUE_COLUMN = /^value$/i;
const TRAILING_CR = /\r$/;

function line(text: string, start: number, end: number, spans: Span[], table: { sep: string; cols: boolean[]; n: number; keyOnly?: boolean } | undefined): typeof table {
  start += diffPrefix(text, start, end);
  // Outside a table, a line that no pattern can start on ({"a": 1}, # a comment, <tag>) is neither sliced nor matched.
  if (!table) {
    let f = start;
    while (f < end && (text.charCodeAt(f) === 32 || text.charCodeAt(f) === 9)) f++;
    // A prompt ends a table.
    if (text.charCodeAt(f) === 36 && text.charCodeAt(f + 1) === 32) pipeDigestTable = false;
    if ((f === end || LINE_PATTERN_FIRST[text.charCodeAt(f)] === 0) && (start === end || HEADER_FIRST[text.charCodeAt(start)] === 0)) {
      // As the | row test would: a line that is no | row ends a secret row's continuation.
      pipeSecretRow = false;
      return undefined;
    }
  }
  const l = text.slice(start, end);
  // The name-keyed rules below (rows, directives, headers) need a sensitive word in the line: one scan of it.
  const named = maybeSensitiveName(text, start, end);
  // Each line rule needs a literal its pattern holds: most lines are tested by indexOf only.
  const colon = l.indexOf(':') !== -1;
  let m = colon ? PGPASS.exec(l) : null;
  // A key fingerprint (SHA1: FD:22:C1:…) or a MAC address: pairs of hex digits joined by colons, no password file.
  if (m && HEX_PAIRS.test(l.trim().replace(/^[\w-]{1,16}:[ \t]+/, ''))) m = null;
  if (m && !isPlaceholder(m[1])) {
    const at = l.lastIndexOf(m[1]);
    spans.push({ start: start + at, end: start + at + m[1].length, rule: 'pgpass' });
  }
  m = l.includes('passw') ? NETRC_LINE.exec(l) : null;
  // password "$GITHUB_TOKEN": a quoted reference is still a reference.
  if (m && m[1].length > 2 && m[1].startsWith('"') && m[1].endsWith('"') && isPlaceholder(m[1].slice(1, -1))) m = null;
  if (m && !isPlaceholder(m[1])) {
    const at = l.lastIndexOf(m[1]);
    spans.push({ start: start + at, end: start + at + m[1].length, rule: 'netrc' });
  }
  // .netrc with a quoted password (curl and Python read `password "two words"`).
  // Alone on its line (after machine/login lines) or after machine/login/default on the same line: not prose that quotes a word.
  m = l.includes('passw') && l.includes('"') ? NETRC_QUOTED.exec(l) : null;
  if (m && !/^[ \t]{0,16}(?:password|passwd)[ \t]/.test(l) && !/\b(?:machine|login|default)[ \t]/.test(l)) m = null;
  if (m && !isPlaceholder(m[1])) {
    const at = l.lastIndexOf(m[1]);
    spans.push({ start: start + at, end: start + at + m[1].length, rule: 'netrc' });
  }
  // | name | value | rows (doppler, confluent, box tables read as |), and a row below that only continues the value.
  // A header naming the value column a digest (`NAME | DIGEST`: fly and supabase secrets list) makes the rows below it names and digests.
  if (!pipeDigestTable && l.includes('|') && l.includes('NAME') && DIGEST_HEADER.test(l)) pipeDigestTable = true;
  if (l.includes('|') && (pipeSecretRow || named)) {
    const p = PIPE_ROW.exec(l);
    const c = !p && pipeSecretRow ? PIPE_CONT.exec(l) : null;
    const v = p && isSensitiveName(p[1]) && !SOURCE_FILE.test(p[1]) && !pipeDigestTable ? p[2] : c ? c[1] : undefined;
    pipeSecretRow = false;
    // A value has a digit or some length: `| secret | db-creds |` names a Secret. One with blanks has a symbol in it
    // too (`Ws!Shell Pw 9`): `| password | at least 8 characters |` is a rule, said in words.
    if (v && !isPlaceholder(v) && (DIGIT.test(v) || v.length >= 16) && (!v.includes(' ') || SPACED_SECRET.test(v))) {
      const at = l.indexOf(v, l.indexOf('|', p ? l.indexOf(p[1]) : 0));
      spans.push({ start: start + at, end: start + at + v.length, rule: 'table' });
      pipeSecretRow = true;
    }
  } else pipeSecretRow = false;
  // sqlite3's list mode and other bare | rows (host|name|value): a cell that names a secret, then its value.
  if (named && !l.includes(' | ') && l.indexOf('|') !== l.lastIndexOf('|')) {
    const cells = l.split('|');
    let at = 0;
    for (let k = 0; k + 1 < cells.length && k < 64; k++) {
      const c = cells[k].trim();
      const v = cells[k + 1].trim();
      // A cell that is a file (src/auth/token.ts) names the file, not a secret.
      if (c.length > 2 && isSensitiveName(c) && !SOURCE_FILE.test(c) && v.length >= 8 && (DIGIT.test(v) || v.length >= 16) && !isPlaceholder(v) && !isSensitiveName(v)) {
        const vs = at + cells[k].length + 1 + cells[k + 1].indexOf(v);
        spans.push({ start: start + vs, end: start + vs + v.length, rule: 'table' });
      }
      at += cells[k].length + 1;
    }
  }
  // A config directive: `requirepass x`, `Splunk_Token x` (one name, blanks, one value, nothing else).
  m = named && firstWordMaybeSensitive(text, start, end) ? DIRECTIVE.exec(l) : null;
  if (m && isSensitiveName(m[1]) && (DIGIT.test(m[3]) || NOT_LETTER.test(m[3])) && !SQL_TYPE.test(m[3]) && isSensitiveAssignment(m[1], m[3])) {
    const at = l.lastIndexOf(m[3]);
    spans.push({ start: start + at, end: start + at + m[3].length, rule: 'directive' });
  }
  // Gradle's and Groovy's `storePassword "two words!"`: a name, blanks, one quoted value that may hold spaces.
  m = named && (l.includes('"') || l.includes("'")) && firstWordMaybeSensitive(text, start, end) ? QUOTED_DIRECTIVE.exec(l) : null;
  if (m && m[3].includes(' ') && isSensitiveName(m[1]) && isSensitiveAssignment(m[1], m[3])) {
    const at = l.lastIndexOf(m[3]);
    spans.push({ start: start + at, end: start + at + m[3].length, rule: 'directive' });
  }
  m = named && (l.includes('  ') || l.includes('\t')) ? ROW.exec(l) : null;
  if (m && isSensitiveName(m[1])) {
    // An aligned `=` or `:` (`db_password     = "x"`, terraform plan's `password     = (sensitive value)`): the value is after it.
    const sep = /^[=:][ \t]+/.exec(m[2]);
    const raw = sep ? m[2].slice(sep[0].length) : m[2];
    const quoted = sep && /^(["'])(.*)\1[ \t]*$/.exec(raw);
    const v = quoted ? quoted[2] : raw.replace(TRAILING_BLANKS, '');
    // More columns after the value (kubectl get, PAM's `password requisite pam_x.so`), or a cell separator: another table's row.
    if (v && !isPlaceholder(v) && !EMPTY_CELL.test(v) && !LISTED_AT.test(v) && !MULTI_COLUMN.test(v) && !declaresType(v) && !isVersionOrOption(v)) {
      const at = l.length - m[2].length + (sep ? sep[0].length : 0) + (quoted ? 1 : 0);
      spans.push({ start: start + at, end: start + at + v.length, rule: 'table' });
    }
  }
  // A delimited table: a header naming a secret column, then rows with as many cells.
  if (table) {
    // The cells' bounds go to a scratch array, not a pair per cell (a table of a hundred thousand rows).
    const count = cellBounds(l, table.sep);
    if (count === table.n || count === table.n + 1) {
      // A loop, not forEach: a closure per row adds up over a table of a hundred thousand rows.
      for (let i = 0; i < count; i++) {
        if (!table.cols[i]) continue;
        let s = CELLS[2 * i];
        let e = CELLS[2 * i + 1];
        if ((l[s] === '"' || l[s] === "'") && l[e - 1] === l[s]) {
          s++;
          e--;
        }
        // Under three characters a value is a placeholder (isPlaceholder): nothing to slice.
        if (e - s < 3) continue;
        const v = l.slice(s, e).trim();
        // A column name in a schema listing (reset_password_token) is not a value.
        if (table.keyOnly && !KEY_CELL.test(v)) continue;
        if (v && !isPlaceholder(v) && !(SCHEMA_COLUMN.test(v) && isSensitiveName(v))) spans.push({ start: start + s, end: start + e, rule: 'credentials-table' });
      }
      return table;
    }
    if (!l.trim() || RULE_LINE.test(l)) return table;
  }
  // A header row is names and separators only, and one of them names a secret (KeyName/Value columns hold `key` too).
  if (!named || !HEADER_CHARS.test(l)) return undefined;
  for (const sep of SEPS) {
    if (!l.includes(sep)) continue;
    const cells = splitCells(l, sep);
    // Cells with text: `| NAME |` (a box table of one column, doppler --only-names) names no value.
    const names = cells.map(([s, e]) => l.slice(s, e).trim().replace(EDGE_QUOTES, ''));
    // One named cell: a box section of one column. It holds a value only under a secret's name (the AWS CLI's
    // `--output table` prints SecretAccessKey so), and then only cells that look like a key, not a list of names.
    if (names.filter((n) => n !== '').length < 2) {
      const only = names.find((n) => n !== '') ?? '';
      if (sep === '|' && COLUMN_NAME.test(only) && isSensitiveName(only) && !ID_COLUMN.test(only) && !/names?$/i.test(only)) return { sep, cols: names.map((n) => n === only), n: cells.length, keyOnly: true };
      continue;
    }
    if (!names.every((n) => COLUMN_NAME.test(n) || n === '')) continue;
    // A Value column beside a KeyName (SecretName, TokenName) column holds those keys.
    const keyed = names.some((n) => KEY_NAME_COLUMN.test(n));
    const cols = names.map((n) => n !== '' && ((isSensitiveName(n) && !ID_COLUMN.test(n)) || (keyed && VALUE_COLUMN.test(n))));
    if (cols.some(Boolean)) return { sep, cols, n: cells.length };
  }
  return undefined;
}

/** A cell that looks like a key: long, of a key's alphabet, with digits and both cases (not a name listed in a column). */
const KEY_CELL = /^(?=[^\s]*\d)(?=[^\s]*[a-z])(?=[^\s]*[A-Z])[A-Za-z0-9+/=_.~-]{16,512}$/;

/**
 * The length of a diff line's prefix, which the line rules read past: `+` or `-` of a unified diff (hg, git, svn; not
 * `+++`/`---` headers nor `--option`), `> ` or `< ` of a normal diff. A context line's blank is indentation already.
 */
function diffPrefix(text: string, start: number, end: number): number {
  if (end - start < 3) return 0;
  const c = text.charCodeAt(start);
  const d = text.charCodeAt(start + 1);
  if ((c === 43 || c === 45) && d !== c && d !== 32 && d !== 9) return 1;
  if ((c === 43 || c === 45) && (d === 32 || d === 9) && text.charCodeAt(start + 2) !== 32 && text.charCodeAt(start + 2) !== 9) return 0; // `- name value`: a bullet, ROW reads it
  if (c === 43 || c === 45) return d === c ? 0 : 1;
  if ((c === 62 || c === 60) && d === 32) return 2;
  return 0;
}

/** splitCells into CELLS (start, end per cell): the number of cells. */
const CELLS = new Int32Array(2 * 66);
function cellBounds(l: string, sep: string): number {
  work.reads += l.length + 1;
  const sc = sep.charCodeAt(0);
  const n = l.length;
  let count = 0;
  let s = 0;
  let inQuote = false;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? l.charCodeAt(i) : -1;
    if (c === 34) inQuote = !inQuote;
    if (i === n || (c === sc && !inQuote)) {
      CELLS[2 * count] = s;
      CELLS[2 * count + 1] = i;
      count++;
      s = i + 1;
      if (count > 64) break;
    }
  }
  return count;
}

function splitCells(l: string, sep: string): [number, number][] {
  work.reads += l.length + 1;
  const out: [number, number][] = [];
  let s = 0;
  let inQuote = false;
  for (let i = 0; i <= l.length; i++) {
    const c = l[i];
    if (c === '"') inQuote = !inQuote;
    if (i === l.length || (c === sep && !inQuote)) {
      out.push([s, i]);
      s = i + 1;
      if (out.length > 64) break;
    }
  }
  return out;
}

// A CLI table in columns (az … -o table): a header, a line of dashes under each column, then rows.
const DASHES = /^[ \t]{0,8}-{3,200}(?:[ \t]{1,64}-{3,200}){1,40}[ \t]*$/gm;

function findColumnTables(text: string, spans: Span[]): void {
  DASHES.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = scan(DASHES, text))) {
    const hs = text.lastIndexOf('\n', m.index - 2) + 1;
    const header = text.slice(hs, m.index - 1).replace(TRAILING_CR, '');
    const cols: [number, number][] = [];
    const re = /-+/g;
    let d: RegExpExecArray | null;
    while ((d = re.exec(m[0]))) cols.push([d.index, d.index + d[0].length]);
    const names = cols.map(([a], i) => header.slice(a, i + 1 < cols.length ? cols[i + 1][0] : header.length).trim());
    const keyed = names.some((n) => KEY_NAME_COLUMN.test(n));
    // A Name column and a Value column (az webapp config appsettings list, ssm parameters): a row's value is secret when its name is.
    const nameCol = names.findIndex((n) => /^name$/i.test(n));
    const valueCol = nameCol >= 0 ? names.findIndex((n) => VALUE_COLUMN.test(n)) : -1;
    const secret = names.map((n) => (isSensitiveName(n) && !ID_COLUMN.test(n)) || (keyed && VALUE_COLUMN.test(n)));
    if (!secret.some(Boolean) && valueCol < 0) continue;
    let ls = m.index + m[0].length + 1;
    for (let k = 0; k < 256 && ls < text.length; k++) {
      let le = text.indexOf('\n', ls);
      if (le === -1) le = text.length;
      const row = text.slice(ls, le).replace(TRAILING_CR, '');
      work.reads += le - ls;
      if (!row.trim()) break;
      const cellAt = (i: number) => row.slice(cols[i][0], i + 1 < cols.length ? cols[i + 1][0] : row.length).trim();
      const rowName = valueCol >= 0 ? cellAt(nameCol).split(/[ \t]/)[0].replace(/^.*\//, '') : '';
      const namedRow = valueCol >= 0 && rowName.length > 2 && isSensitiveName(rowName);
      cols.forEach(([a], i) => {
        if (!secret[i] && !(namedRow && i === valueCol)) return;
        const cell = row.slice(a, i + 1 < cols.length ? cols[i + 1][0] : row.length);
        const v = cell.trim().split(/[ \t]/)[0];
        if (v && !isPlaceholder(v)) spans.push({ start: ls + a + cell.indexOf(v), end: ls + a + cell.indexOf(v) + v.length, rule: 'table' });
      });
      ls = le + 1;
    }
  }
}

// Name and value given apart: Kubernetes env (- name: X / value: "..."), ECS and SSM JSON ({"Name": "X", "Value": "..."}),
// .NET appSettings (<add key="X" value="..." />), tags ({"Key": "X", "Value": "..."}), and the same in a plan's diff
// (terraform's `+ set { + name = "adminPassword"  + value = "…" }`: a change marker + ~ - before each line).
// Android's <meta-data android:name="…ApiKey" android:value="…"/>: the attributes' namespace prefix before each.
// A name may be a path (Magento's core_config_data: `name: payment/gateway/api_key`): its last part is what it names.
const NAME_THEN_VALUE = /\b(?:[Nn]ame|[Kk]ey)["']?[ \t]{0,3}[:=][ \t]{0,3}["']?([A-Za-z_][A-Za-z0-9_.:/-]{0,63})["']?[ \t]{0,3},?[ \t]{0,3}(?:\r?\n[ \t+~-]{0,40})?["']?(?:[A-Za-z]{1,20}:)?(?:[Vv]alue|secretValue|SecretString|Data)["']?[ \t]{0,3}[:=][ \t]{0,3}/g;
// XML whose value is a child element: <setting name="FtpPassword" …><value>…</value> (.NET settings), <AdministratorPassword><Value>…</Value> (unattend.xml).
const XML_CHILD_VALUE = /<([A-Za-z_][\w:.-]{0,63})((?:[ \t]{1,4}[\w:.-]{1,40}="[^"\n]{0,200}"){0,6})[ \t]{0,4}>[ \t\r\n]{0,80}<([Vv]alue|PlainText)>([^<\n]{1,512})<\/\3>/g;
const NAME_ATTRIBUTE = /\b(?:name|key|Name|Key)="([^"\n]{1,64})"/;

let cookieText = '';
let cookieMemo = false;
function cookieExport(text: string): boolean {
  if (text !== cookieText) {
    cookieText = text;
    cookieMemo = /"(?:domain|hostOnly|httpOnly|expirationDate)"[ \t]{0,3}:/.test(text);
  }
  return cookieMemo;
}

export function findNameValuePairs(text: string, spans: Span[]): void {
  NAME_THEN_VALUE.lastIndex = 0;
  let m: RegExpExecArray | null;
  if (text.includes('alue>') || text.includes('<PlainText>')) {
    XML_CHILD_VALUE.lastIndex = 0;
    while ((m = scan(XML_CHILD_VALUE, text))) {
      const name = NAME_ATTRIBUTE.exec(m[2])?.[1] ?? m[1];
      const v = m[4].trim();
      if (!isSensitiveName(name.replace(/^.*:/, '')) || isPlaceholder(v)) continue;
      const start = m.index + m[0].length - m[3].length - 3 - m[4].length + m[4].indexOf(v);
      spans.push({ start, end: start + v.length, rule: 'name-value' });
    }
  }
  NAME_THEN_VALUE.lastIndex = 0;
  while ((m = scan(NAME_THEN_VALUE, text))) {
    const name = m[1].includes('/') ? m[1].slice(m[1].lastIndexOf('/') + 1) : m[1];
    // A browser's cookie export ({"domain": …, "name": "li_at", "value": …}): a long random value is a session.
    const cookie = !isSensitiveName(name) && (SECRET_COOKIE.test(name) || cookieExport(text));
    if (!isSensitiveName(name) && !cookie) continue;
    let at = m.index + m[0].length;
    // YAML's block scalar (`value: >-` then the value indented on the next line).
    const block = /^[>|][-+]?[ \t]*\r?\n[ \t]{1,40}(?=\S)/.exec(text.slice(at, at + 48));
    if (block) at += block[0].length;
    const v = readValue(text, at, { stops: ',}' });
    if (cookie && v && !(v[1] - v[0] >= 20 && DIGIT.test(text.slice(v[0], v[1])) && LOWER.test(text.slice(v[0], v[1])) && UPPER.test(text.slice(v[0], v[1])))) continue;
    if (!v) continue;
    const value = text.slice(v[0], v[1]);
    if (isPlaceholder(value)) continue;
    spans.push({ start: v[0], end: v[1], rule: 'name-value' });
  }
}

/**
 * A secret found once is a secret wherever else the text repeats it (`snyk config get api` prints the key that
 * snyk.json then holds under a name too plain to judge). Values of 12 to 512 characters on one line, at most 8 of them, in texts up to 256 KiB.
 */
const PW_DIGIT = /\d/;
const PW_LETTER = /[A-Za-z]/;
const PW_SYMBOL = /[^A-Za-z0-9]/;
const PW_UPPER = /[A-Z]/;
const PW_LOWER = /[a-z]/;

export function findRepeatedSecrets(text: string, spans: Span[]): void {
  if (spans.length === 0 || text.length > 262144) return;
  const seen = new Set<string>();
  const n = spans.length;
  for (let i = 0; i < n && seen.size < 8; i++) {
    const s = spans[i];
    const len = s.end - s.start;
    if (len < 8 || len > 512) continue;
    const v = text.slice(s.start, s.end);
    // A shorter secret is looked for again only when it reads as a password (letters, digits and a symbol or both
    // cases: Doppl3r!Pw); a plain word of that length would be found in prose.
    if (len < 12 && !(PW_DIGIT.test(v) && PW_LETTER.test(v) && (PW_SYMBOL.test(v) || (PW_UPPER.test(v) && PW_LOWER.test(v))))) continue;
    if (seen.has(v) || v.includes('\n')) continue;
    seen.add(v);
    work.reads += text.length;
    for (let at = text.indexOf(v), k = 0; at !== -1 && k < 64; at = text.indexOf(v, at + v.length), k++) {
      if (at !== s.start) spans.push({ start: at, end: at + v.length, rule: s.rule });
    }
  }
}
