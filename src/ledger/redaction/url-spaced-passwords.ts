// URL userinfo whose password holds a space (`postgres://user:pa ss@localhost:5432/db` pasted in
// chat): the URL rule ends a URL at a blank. When the text after `user:` reaches `@host` shortly
// on the same line, past at most three blanks and no path, the whole run is the password.
import { isPlaceholder } from './names';
import { schemeStart } from './structured';
import type { Span } from './text';
import { work } from './work';

// An @ may be part of the user, as agents write it (alerts@example.org:app pass word@smtp.gmail.com): the password ends at the last @ before the host.
const USER_CHAR = /[A-Za-z0-9._~%!$&'*+,;=@-]/;
const HOST = /^(?:[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,10})(?::\d{1,5})?/;
const MAX_PASSWORD = 64;

export function findSpacedUrlPasswords(text: string, spans: Span[]): void {
  let next = 0;
  for (let sep = text.indexOf('://'); sep !== -1; sep = text.indexOf('://', Math.max(sep + 3, next))) {
    if (schemeStart(text, sep, Math.max(0, next)) === -1) continue;
    const a = sep + 3;
    // The user: to the first colon, no blank or /.
    let c = a;
    while (c < text.length && c - a < 64 && USER_CHAR.test(text[c])) c++;
    work.reads += c - a + 1;
    next = c;
    if (c === a || text[c] !== ':') continue;
    // The password: to an @ within MAX_PASSWORD characters, on the line, holding a blank.
    let e = c + 1;
    let blanks = 0;
    let at = -1;
    for (; e < text.length && e - c <= MAX_PASSWORD; e++) {
      const ch = text.charCodeAt(e);
      if (ch === 64) {
        at = e;
        break;
      }
      if (ch === 10 || ch === 13 || ch === 47 || ch === 34 || ch === 60 || ch === 62 || ch === 96) break;
      if (ch === 32) {
        // Not two blanks in a row, and not at the password's start.
        if (e === c + 1 || text.charCodeAt(e - 1) === 32) break;
        blanks++;
      }
      if (ch === 9) break;
    }
    work.reads += e - c;
    next = Math.max(next, e);
    if (at === -1 || blanks === 0 || blanks > 3 || text.charCodeAt(at - 1) === 32) continue;
    const h = HOST.exec(text.slice(at + 1, at + 1 + 300));
    work.reads += h ? h[0].length : 1;
    // A host a URL names: dotted, with a port, or localhost.
    if (!h || !(h[0].includes('.') || h[0].includes(':') || h[0].startsWith('localhost'))) continue;
    const pw = text.slice(c + 1, at);
    if (/^\d{1,5}$/.test(pw.split(' ')[0]) || isPlaceholder(pw)) continue;
    spans.push({ start: c + 1, end: at, rule: 'url-credentials' });
  }
}
