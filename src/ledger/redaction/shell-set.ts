// fish's `set -x NAME VALUE` (with -g, -U, -l, --export ...): a variable set by NAME VALUE words.
// Only with an option: bash's `set a b` sets the positional parameters, not a variable. At a line's start,
// after a prompt (`~> `, `$ `, `user@host ~> `), or after a list operator.
import { isPlaceholder, isSensitiveName } from './names';
import type { Span } from './text';
import { scanLines } from './anchored';

const FISH_SET = /(?:^(?:[^\n]{0,60}?[$#%>][ \t])?|[;&|(]|\band[ \t]|\bor[ \t])[ \t]{0,8}set[ \t]{1,4}(?:-[A-Za-z]{1,6}[ \t]{1,4}|--(?:export|global|universal|local|function)[ \t]{1,4}){1,4}([A-Za-z_]\w{0,63})[ \t]{1,4}(?:'([^'\n]{1,512})'|"((?:[^"\\\n]|\\.){1,512})"|([^\s;&|'"]{1,512}))/g;
const ANCHOR = /\bset[ \t]{1,4}-/g;

export function findShellSets(text: string, spans: Span[]): void {
  if (!text.includes('set ')) return;
  scanLines(FISH_SET, ANCHOR, text, (m) => {
    const v = m[2] ?? m[3] ?? m[4];
    if (!isSensitiveName(m[1]) || isPlaceholder(v) || v.startsWith('$')) return;
    const start = m.index + m[0].length - v.length - (m[4] !== undefined ? 0 : 1);
    spans.push({ start, end: start + v.length, rule: 'assignment' });
  });
}
