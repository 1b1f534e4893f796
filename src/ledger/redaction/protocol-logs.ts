// Secrets in servers' command logs: `redis-cli MONITOR` prints each command as quoted words
// (`"AUTH" "pw"`, `"AUTH" "user" "pw"`, `"HELLO" "3" "AUTH" "user" "pw"`, `"CONFIG" "SET"
// "requirepass" "pw"`, `"ACL" "SETUSER" "u" ">pw"`); MySQL's general log keeps the statements
// (`SET PASSWORD FOR 'u'@'%' = 'pw'`, which the SQL rule's IDENTIFIED BY does not cover).
// Mail sessions as clients log them (IMAP's `a1 LOGIN user "pw"`, SMTP and IMAP `AUTH PLAIN
// <base64>` and the base64 answer to AUTH LOGIN's `334 UGFzc3dvcmQ6`, which is `Password:`);
// FTP's and POP3's PASS is formats.ts's.
import { isPlaceholder } from './names';
import { scanLines } from './anchored';
import type { Span } from './text';

const Q = '"((?:[^"\\\\\\n]|\\\\.){1,512})"';
// AUTH with one or two arguments: the last is the password.
const REDIS_AUTH = new RegExp(`"(?:AUTH|auth|Auth)"[ \\t]${Q}(?:[ \\t]${Q})?`, 'g');
const REDIS_AUTH_ANCHOR = /"auth"/gi;
const REDIS_CONFIG = new RegExp(`"(?:CONFIG|config)"[ \\t]"(?:SET|set)"[ \\t]"(?:requirepass|masterauth|tls-key-file-pass|tls-client-key-file-pass)"[ \\t]${Q}`, 'g');
const REDIS_CONFIG_ANCHOR = /"(?:config|CONFIG)"/g;
// ACL SETUSER: each `>password` rule (a `#hash` is a digest).
const REDIS_ACL = /"(?:ACL|acl)"[ \t]"(?:SETUSER|setuser)"((?:[ \t]"(?:[^"\\\n]|\\.){0,512}"){1,32})/g;
const REDIS_ACL_ANCHOR = /"setuser"/gi;
const ACL_PASSWORD = /">((?:[^"\\\n]|\\.){1,512})"/g;
const SET_PASSWORD_FOR = /\bSET[ \t]{1,4}PASSWORD[ \t]{1,4}FOR[ \t]{1,4}[^=\n]{1,200}=[ \t]{0,4}(?:PASSWORD[ \t]{0,2}\([ \t]{0,2})?'((?:[^'\\\n]|\\.|''){1,256})'/gi;
const SET_PASSWORD_HINT = /password[ \t]{1,4}for\b/i;
const SET_PASSWORD_ANCHOR = /password[ \t]{1,4}for\b/gi;

/**
 * A client line's prefix in a session log (a regular expression's source, from the line's start): `C: `, `>>> `,
 * `> `, ftp -d's `---> `, a client's own prompt (`ftp> `), and before them a time stamp or a tag (`smtp debug:`).
 * formats.ts's FTP and POP3 PASS reader uses it too.
 */
export const CLIENT = '^[ \\t]{0,8}(?:[^\\n:]{0,60}:[ \\t]{0,4}){0,5}(?:C:[ \\t]{0,4}|-{1,3}>[ \\t]{0,4}|>{1,3}[ \\t]{0,4}|<<<[ \\t]{0,4}|[a-z]{2,8}>[ \\t]{1,4})?';
const IMAP_LOGIN = new RegExp(`${CLIENT}[A-Za-z0-9.]{1,12}[ \\t]{1,4}(?:LOGIN|login)[ \\t]{1,4}(?:"(?:[^"\\\\\\n]|\\\\.){1,256}"|\\S{1,256})[ \\t]{1,4}(?:"((?:[^"\\\\\\n]|\\\\.){1,256})"|(\\S{1,256}))[ \\t]*$`, 'gm');
// Python's smtplib debug output quotes what it sends: `send: 'AUTH PLAIN <base64>\\r\\n'`.
const AUTH_PLAIN = new RegExp(`${CLIENT}['"]?(?:[A-Za-z0-9.]{1,12}[ \\t]{1,4})?(?:AUTH|AUTHENTICATE|auth|authenticate)[ \\t]{1,4}(?:PLAIN|plain|XOAUTH2|xoauth2|OAUTHBEARER|oauthbearer)[ \\t]{1,4}([A-Za-z0-9+/]{8,4096}={0,2})(?:\\\\r\\\\n)?['"]?[ \\t]*$`, 'gm');
// AUTH LOGIN: the server asks `334 UGFzc3dvcmQ6` (Password:), the client's next line answers in base64.
const AUTH_LOGIN_PASSWORD = new RegExp(`334[ \\t]{1,4}UGFzc3dvcmQ6[ \\t]*\\r?\\n(?:[^\\n]{0,60}(?:C:|-{1,3}>|>{1,3})[ \\t]{0,4})?([A-Za-z0-9+/]{4,4096}={0,2})[ \\t]*$`, 'gm');

function findSessionSecrets(text: string, spans: Span[]): void {
  if (/LOGIN|login/.test(text)) {
    IMAP_LOGIN.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = IMAP_LOGIN.exec(text))) {
      const v = m[1] ?? m[2];
      const end = m.index + m[0].replace(/[ \t]+$/, '').length - (m[1] !== undefined ? 1 : 0);
      push(spans, end - v.length, v);
    }
  }
  if (/AUTH|auth|UGFzc3dvcmQ6/.test(text)) {
    for (const re of [AUTH_PLAIN, AUTH_LOGIN_PASSWORD]) {
      re.lastIndex = 0;
      let m: RegExpExecArray | null;
      while ((m = re.exec(text))) push(spans, m.index + m[0].replace(/[ \t]+$/, '').length - m[1].length, m[1]);
    }
  }
}

function push(spans: Span[], start: number, v: string): void {
  if (!isPlaceholder(v)) spans.push({ start, end: start + v.length, rule: 'protocol-log' });
}

export function findProtocolLogSecrets(text: string, spans: Span[]): void {
  findSessionSecrets(text, spans);
  if (text.includes('"')) {
    if (text.includes('"AUTH"') || text.includes('"auth"') || text.includes('"Auth"')) scanLines(REDIS_AUTH, REDIS_AUTH_ANCHOR, text, (m) => {
      const v = m[2] ?? m[1];
      push(spans, m.index + m[0].length - 1 - v.length, v);
    });
    if (text.includes('"CONFIG"') || text.includes('"config"')) scanLines(REDIS_CONFIG, REDIS_CONFIG_ANCHOR, text, (m) => push(spans, m.index + m[0].length - 1 - m[1].length, m[1]));
    if (text.includes('SETUSER') || text.includes('setuser')) scanLines(REDIS_ACL, REDIS_ACL_ANCHOR, text, (m) => {
      const rules = m[1];
      const at = m.index + m[0].length - rules.length;
      ACL_PASSWORD.lastIndex = 0;
      let p: RegExpExecArray | null;
      while ((p = ACL_PASSWORD.exec(rules))) push(spans, at + p.index + 2, p[1]);
    });
  }
  if (text.includes("'") && SET_PASSWORD_HINT.test(text)) scanLines(SET_PASSWORD_FOR, SET_PASSWORD_ANCHOR, text, (m) => push(spans, m.index + m[0].length - 1 - m[1].length, m[1]));
}
