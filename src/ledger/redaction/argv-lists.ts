// A command line kept as a list, one argument per item: a container's args in
// JSON (`"--db.password",` then `"value",` on the next line) or YAML (`- --password`
// then `- value`). A flag that names a secret, alone in its item, takes the next
// item as its value, as the program it is handed to reads it.
import { isPlaceholder, isSensitiveName } from './names';
import type { Span } from './text';
import { work } from './work';

const ITEM = /^[ \t]{0,40}(?:-[ \t]{1,4}(["']?)|(["']))((?:\\.|[^"'\\\n])*?)(?:\1|\2)[ \t]*,?[ \t]*\r?$/;
const FLAG = /^--?([A-Za-z][\w.-]{1,48})$/;

export function findArgvListSecrets(text: string, spans: Span[]): void {
  if (!text.includes('\n') || !(text.includes('"--') || text.includes('- -') || text.includes("'--"))) return;
  let prev: string | undefined;
  for (let ls = 0; ls < text.length; ) {
    let le = text.indexOf('\n', ls);
    if (le === -1) le = text.length;
    work.reads += le - ls + 1;
    const m = le - ls <= 4096 ? ITEM.exec(text.slice(ls, le)) : null;
    if (m) {
      const item = m[3];
      const flag = prev !== undefined ? FLAG.exec(prev) : null;
      if (flag && !item.startsWith('-') && item.length >= 4 && isSensitiveName(flag[1].split(/[.]/).pop()!) && !isPlaceholder(item)) {
        const start = ls + m[0].indexOf(item, m[0].search(/[-"']/) + 1);
        spans.push({ start, end: start + item.length, rule: 'cli-flag' });
      }
      prev = item;
    } else prev = undefined;
    ls = le + 1;
  }
}
