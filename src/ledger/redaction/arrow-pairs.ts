// A bare name before `=>`: Logstash's `password => "x"`, `jdbc_password => x`,
// Perl's and Ruby's `api_key => 'x'` (quoted names and :symbols are formats.ts's
// ARROW_PAIR). PHP's `$k => $v` and a value that is code (ENV['X'], params[:p])
// stay; an unquoted value must hold a digit or a symbol.
import { isSensitiveAssignment, isSensitiveName } from './names';
import type { Span } from './text';
import { scan, work } from './work';

const BARE_ARROW = /(?<![\w.:$'"@-])([A-Za-z_][\w.-]{0,63})[ \t]{0,3}=>[ \t]{0,3}(?:(["'])((?:\\.|(?!\2)[^\\\n]){1,1024})\2|([^\s,}\]\[()#"'$;]{1,512})(?![\w\[(.]))/g;
const DIGIT_OR_SYMBOL = /[^A-Za-z_]/;

/**
 * Each line holding `=>` whose `=>` follows a name character, found by indexOf (the anchor is a literal):
 * separator noise holds `=>` on most lines, rarely after a name.
 */
function arrowLines(text: string, visit: (m: RegExpExecArray) => void): void {
  let i = text.indexOf('=>');
  while (i !== -1) {
    let b = i - 1;
    while (b >= 0 && i - b <= 4 && (text.charCodeAt(b) === 32 || text.charCodeAt(b) === 9)) b--;
    const c = b >= 0 ? text.charCodeAt(b) : 0;
    const named = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
    if (!named) {
      i = text.indexOf('=>', i + 2);
      continue;
    }
    const ls = text.lastIndexOf('\n', i) + 1;
    let le = text.indexOf('\n', i);
    if (le === -1) le = text.length;
    work.reads += le - ls;
    const line = text.slice(ls, le);
    BARE_ARROW.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = scan(BARE_ARROW, line))) {
      m.index += ls;
      visit(m);
    }
    if (le >= text.length) break;
    i = text.indexOf('=>', le + 1);
  }
}

export function findArrowPairs(text: string, spans: Span[]): void {
  if (!text.includes('=>')) return;
  arrowLines(text, (m) => {
    const name = m[1];
    if (!isSensitiveName(name)) return;
    const v = m[3] ?? m[4];
    if (m[4] !== undefined && !DIGIT_OR_SYMBOL.test(v)) return;
    if (!isSensitiveAssignment(name, v)) return;
    const start = m.index + m[0].length - v.length - (m[3] !== undefined ? 1 : 0);
    spans.push({ start, end: start + v.length, rule: 'assignment' });
  });
}
