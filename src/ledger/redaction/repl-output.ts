// A REPL transcript (irb, pry, rails console, python, node, terraform
// console, IPython): an expression that names a secret, then what the REPL
// printed for it on the next line (=> "x", 'x', Out[3]: 'x').
import { isPlaceholder, isSensitiveName } from './names';
import type { Span } from './text';
import { scan, work } from './work';

const PROMPT_LINE = /^(?:irb\([\w.-]{1,40}\):\d{1,5}(?::\d{1,3})?[:>*]?[>*]?|iex\([\w.@-]{1,60}\)\d{1,5}>|[a-z][\w-]{0,40}\([\w-]{1,40}\)[>*]|\[\d{1,5}\] pry\([\w.-]{1,40}\)>|pry\([\w.-]{1,40}\)>|>>>|In \[\d{1,5}\]:|>)[ \t]{1,4}([^\n]{1,400})$/gm;
const NAME = /[A-Za-z_][\w]{0,63}/g;
// What the REPL prints: irb's => , IPython's Out[n]:, or the value alone; quoted or not.
const ECHO = /^[ \t]{0,4}(?:=>[ \t]{0,2}|Out\[\d{1,5}\]:[ \t]{0,2})?(?:"((?:[^"\\\n]|\\.){1,4096})"|'((?:[^'\\\n]|\\.){1,4096})'|([^\s"'][^\s]{5,4095}))[ \t]*\r?$/;
const NOT_A_SECRET = /^(?:nil|null|None|true|false|True|False|undefined|\d{1,12}|#<[^>]{0,200}>|\[\]|\{\})$/;

export function findReplEchoes(text: string, spans: Span[]): void {
  if (!text.includes('>') && !text.includes('In [')) return;
  PROMPT_LINE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = scan(PROMPT_LINE, text))) {
    const expr = m[1];
    // Any name in the expression that says secret: credentials.devise[:pepper], random_password.db.result, os.environ['TOKEN'].
    let named = false;
    NAME.lastIndex = 0;
    let w: RegExpExecArray | null;
    while (!named && (w = NAME.exec(expr))) named = w[0].length > 2 && isSensitiveName(w[0]);
    work.reads += expr.length;
    if (!named) continue;
    const ls = m.index + m[0].length + 1;
    if (ls >= text.length) continue;
    let le = text.indexOf('\n', ls);
    if (le === -1) le = text.length;
    const line = text.slice(ls, le);
    work.reads += line.length;
    const e = ECHO.exec(line);
    if (!e) continue;
    const v = e[1] ?? e[2] ?? e[3];
    if (NOT_A_SECRET.test(v) || isPlaceholder(v) || v.length < 6) continue;
    const quote = e[1] !== undefined ? '"' : e[2] !== undefined ? "'" : '';
    const start = ls + (quote ? line.indexOf(quote) + 1 : line.indexOf(v));
    spans.push({ start, end: start + v.length, rule: 'repl-echo' });
  }
}
