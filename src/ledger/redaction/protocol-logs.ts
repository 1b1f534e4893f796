// Secrets in servers' command logs: `redis-cli MONITOR` prints each command as quoted words
// (`"AUTH" "pw"`, `"AUTH" "user" "pw"`, `"HELLO" "3" "AUTH" "user" "pw"`, `"CONFIG" "SET"
// "requirepass" "pw"`, `"ACL" "SETUSER" "u" ">pw"`); MySQL's general log keeps the statements
// (`SET PASSWORD FOR 'u'@'%' = 'pw'`, which the SQL rule's IDENTIFIED BY does not cover).
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

function push(spans: Span[], start: number, v: string): void {
  if (!isPlaceholder(v)) spans.push({ start, end: start + v.length, rule: 'protocol-log' });
}

export function findProtocolLogSecrets(text: string, spans: Span[]): void {
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
