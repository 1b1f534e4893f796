// Secrets whose name is a value beside them rather than a key before them:
// a key-value table's rows in a dump (`(41,'mailserver_pass','M@il!','yes')`:
// WordPress options, settings tables), a JSON object named by the secret
// and holding it as its `value` over lines (Spring Boot's /actuator/env,
// `"spring.datasource.password": {` then `"value": "x"`), and Redis ACL
// rules, where `>x` sets user's password x (`user ops on >x ~* +@all`).
import { scanLines } from './anchored';
import { isSensitiveAssignment, isSensitiveName } from './names';
import type { Span } from './text';
import { scan } from './work';

const SQL_PAIR = /'([A-Za-z_][\w.-]{0,63})'[ \t]{0,4},[ \t]{0,4}'((?:[^'\\\n]|\\.|''){1,1024})'/g;
const SQL_ANCHOR = /',[ \t]{0,4}'/g;
const NAMED_OBJECT = /"([A-Za-z_][\w.-]{0,127})"[ \t]*:[ \t]*\{\s{0,64}?"(?:value|Value|secret|plaintext)"[ \t]*:[ \t]*"((?:[^"\\\n]|\\.){1,1024})"/g;
// An ACL line: `ACL SETUSER name ...`, or (ACL LIST, users.acl) `user name` with `on` or `off` among its rules.
const ACL_LINE = /^[ \t]{0,8}(?:\d{1,6}\)[ \t]{1,4}"?)?(?:(?:ACL|acl)[ \t]+(?:SETUSER|setuser)[ \t]+\S{1,128}|user[ \t]+\S{1,128}(?=[^\n]{0,400}[ \t](?:on|off)(?:[ \t]|"?$)))[^\n]{0,2000}$/gm;
const ACL_ANCHOR = /[ \t]>\S/g;
const ACL_PASSWORD = /[ \t]>([^\s"]{1,512})/g;

export function findPairedLiterals(text: string, spans: Span[]): void {
  if (text.includes("','") || text.includes("', '")) {
    scanLines(SQL_PAIR, SQL_ANCHOR, text, (m) => {
      const v = m[2];
      if (!isSensitiveName(m[1]) || !isSensitiveAssignment(m[1], v)) return;
      const start = m.index + m[0].length - 1 - v.length;
      spans.push({ start, end: start + v.length, rule: 'assignment' });
    });
  }
  if (text.includes('{') && (text.includes('"value"') || text.includes('"Value"') || text.includes('"secret"') || text.includes('"plaintext"'))) {
    NAMED_OBJECT.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = scan(NAMED_OBJECT, text))) {
      const v = m[2];
      if (!isSensitiveName(m[1]) || !isSensitiveAssignment(m[1], v)) continue;
      const start = m.index + m[0].length - 1 - v.length;
      spans.push({ start, end: start + v.length, rule: 'assignment' });
    }
  }
  if (text.includes(' >') && (text.includes('user ') || text.includes('SETUSER') || text.includes('setuser'))) {
    scanLines(ACL_LINE, ACL_ANCHOR, text, (m) => {
      ACL_PASSWORD.lastIndex = 0;
      let p: RegExpExecArray | null;
      while ((p = scan(ACL_PASSWORD, m[0]))) {
        const start = m.index + p.index + 2;
        spans.push({ start, end: start + p[1].length, rule: 'redis-acl' });
      }
    });
  }
}
