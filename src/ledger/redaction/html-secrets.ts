// Secrets in HTML: a <meta> named for a secret (`<meta name="x-api-key" content="x">`), a table
// row whose first cell names a secret (phpinfo's `<td class="e">DB_PASSWORD </td><td class="v">x </td>`,
// Django's and Werkzeug's debug pages, `<td>api_secret</td><td>'x'</td>`), and a comment that
// holds credentials (`<!-- admin / pw -->`; `<!-- password: x -->` is an assignment already).
import { isPlaceholder, isSensitiveAssignment, isSensitiveName } from './names';
import type { Span } from './text';
import { scan, work } from './work';

const META = /<meta\b([^<>\n]{1,600})>/gi;
const ATTR_NAME = /\b(?:name|property|itemprop)[ \t]{0,2}=[ \t]{0,2}(["'])([^"'<>\n]{1,80})\1/i;
const ATTR_CONTENT = /\bcontent[ \t]{0,2}=[ \t]{0,2}(["'])([^"'<>\n]{1,1024})\1/i;
// A cell naming a secret, then the next cell (a line end or a few blanks between).
const CELLS = /<t[dh]\b[^<>\n]{0,200}>[ \t]{0,8}([A-Za-z_][\w.-]{0,63})[ \t]{0,8}<\/t[dh]>[ \t\r\n]{0,40}<td\b[^<>\n]{0,200}>((?:[^<\n]|<(?!\/td>)){0,1024})<\/td>/gi;
/** What wraps a cell's value: blanks, tags (<pre>, <code>), quotes and their entities. */
const EDGE = /^(?:[ \t\r\n]|<[^<>]{0,40}>|&#39;|&#x27;|&quot;|&apos;|["'])/;
const EDGE_END = /(?:[ \t\r\n]|<[^<>]{0,40}>|&#39;|&#x27;|&quot;|&apos;|["'])$/;
const COMMENT = /<!--((?:[^-\n]|-(?!->)){1,400})-->/g;
// `user / password`, `user:password`, `user pw` with a user a site is set up with.
const COMMENT_PAIR = /^[ \t]{0,8}(?:(?:user(?:name)?|login|creds?|credentials?)[ \t]{0,2}[:=]?[ \t]{0,2})?([\w.@+-]{2,64})[ \t]{0,3}(?:\/|:|\||[ \t])[ \t]{0,3}(\S{4,128})[ \t]{0,8}$/i;
const LOGIN_USER = /^(?:admin|administrator|root|user|test|tester|demo|guest|sa|dba|postgres|mysql|ops|dev|developer|support|webmaster|manager|operator|superuser|su)$|@/i;
const DIGIT = /[0-9]/;
const LETTER = /[A-Za-z]/;

function unwrap(text: string, s: number, e: number): [number, number] {
  for (let k = 0; k < 8 && s < e; k++) {
    const h = EDGE.exec(text.slice(s, Math.min(e, s + 48)));
    if (!h) break;
    s += h[0].length;
  }
  for (let k = 0; k < 8 && e > s; k++) {
    const t = EDGE_END.exec(text.slice(Math.max(s, e - 48), e));
    if (!t) break;
    e -= t[0].length;
  }
  return [s, e];
}

export function findHtmlSecrets(text: string, spans: Span[]): void {
  if (!text.includes('<')) return;
  let m: RegExpExecArray | null;
  if (text.includes('<meta') || text.includes('<META')) {
    META.lastIndex = 0;
    while ((m = scan(META, text))) {
      const attrs = m[1];
      work.reads += 2 * attrs.length;
      const n = ATTR_NAME.exec(attrs);
      const c = n ? ATTR_CONTENT.exec(attrs) : null;
      if (!n || !c || !isSensitiveName(n[2]) || !isSensitiveAssignment(n[2], c[2])) continue;
      const start = m.index + 5 + c.index + c[0].length - 1 - c[2].length;
      spans.push({ start, end: start + c[2].length, rule: 'html' });
    }
  }
  if (text.includes('<td') || text.includes('<TD')) {
    CELLS.lastIndex = 0;
    while ((m = scan(CELLS, text))) {
      if (!isSensitiveName(m[1])) {
        // The value cell may name the next row's secret: go on from it.
        const inner = m[0].length - 5 - m[2].length;
        const second = Math.max(m[0].lastIndexOf('<td', inner), m[0].lastIndexOf('<TD', inner));
        CELLS.lastIndex = m.index + (second > 0 ? second : inner);
        continue;
      }
      const cell = m.index + m[0].length - 5 - m[2].length;
      const [s, e] = unwrap(text, cell, cell + m[2].length);
      if (e - s < 3) continue;
      const raw = text.slice(s, e);
      const v = raw.replace(/&#39;|&#x27;|&apos;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
      if (isPlaceholder(v) || !isSensitiveAssignment(m[1], v)) continue;
      spans.push({ start: s, end: e, rule: 'html' });
    }
  }
  if (text.includes('<!--')) {
    COMMENT.lastIndex = 0;
    while ((m = scan(COMMENT, text))) {
      const p = COMMENT_PAIR.exec(m[1]);
      if (!p) continue;
      const pw = p[2];
      // A password has a digit or a symbol besides letters; the user is one a site is set up with.
      if (!LOGIN_USER.test(p[1]) || !(LETTER.test(pw) || DIGIT.test(pw)) || !/[^A-Za-z]/.test(pw) || isPlaceholder(pw)) continue;
      const start = m.index + 4 + m[1].lastIndexOf(pw);
      spans.push({ start, end: start + pw.length, rule: 'html-comment' });
    }
  }
}
