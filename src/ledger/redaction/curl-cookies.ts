// Cookies given to curl on its command line: curl -b 'connect.sid=s%3A…',
// --cookie "sessionid=…; lang=en", --cookie=name=value. The values of
// session-like cookies go (the Cookie header's rule, SECRET_COOKIE, or a
// sensitive name), URL-encoded or not; other cookies (lang, theme) and a
// cookie file (-b cookies.txt, no `=`) stay.
import { scanLines } from './anchored';
import { SECRET_COOKIE } from './headers';
import { isPlaceholder, isSensitiveName } from './names';
import type { Span } from './text';
import { work } from './work';

const COOKIE_ARG = /(?<![^\s'"])(?:-b|--cookie)(?:[ \t]{1,8}|=)(?:"([^"\n]{1,4096})"|'([^'\n]{1,4096})'|([^\s"']{1,4096}))/g;
const COOKIE_ANCHOR = /-b[ \t]|--cookie/g;
const CURL = /(?:^|[\s/\\'"(;&|])curl(?:\.exe)?[ \t]/;

export function findCurlCookies(text: string, spans: Span[]): void {
  if (!text.includes('-b') && !text.includes('--cookie')) return;
  // Whether the line holds curl, once per line (a line may hold many options).
  let line = -1;
  let curl = false;
  scanLines(COOKIE_ARG, COOKIE_ANCHOR, text, (m) => {
    // The pattern's lastIndex is the match's end in the line: the line's start in the text, without a look back.
    const lineStart = m.index + m[0].length - COOKIE_ARG.lastIndex;
    if (lineStart !== line) {
      line = lineStart;
      curl = CURL.test(m.input);
      work.reads += m.input.length;
    }
    if (!curl) return;
    const v = m[1] ?? m[2] ?? m[3];
    if (!v.includes('=')) return;
    let at = m.index + m[0].length - v.length - (m[3] === undefined ? 1 : 0);
    for (const pair of v.split(';')) {
      const eq = pair.indexOf('=');
      if (eq > 0) {
        const name = pair.slice(0, eq).trim();
        const raw = pair.slice(eq + 1);
        const value = raw.trim();
        if ((SECRET_COOKIE.test(name) || isSensitiveName(name)) && value.length >= 6 && !isPlaceholder(value)) {
          const vs = at + eq + 1 + raw.indexOf(value);
          spans.push({ start: vs, end: vs + value.length, rule: 'cookie' });
        }
      }
      at += pair.length + 1;
    }
  });
}
