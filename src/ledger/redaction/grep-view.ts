// A view of search output without its line prefixes: `grep -n`, `grep -r`, `rg`, `git grep` print
// each matching line after `path:`, `N:` or `path:N:` (`-` for context lines), so a detector that
// reads a line from its start (a config directive, `KEY=value`, a YAML member) saw the prefix
// instead. The view holds only the prefixed lines, without their prefixes, each mapped back.
import { mayHoldSecret } from './screen';
import { work } from './work';

/** `path:N:`, `N:`, `path:N-`, or `path:` where the path names a file (a folder, a dot and an extension, or a dotfile). */
const PREFIX = /^(?:[\w.@+~/-]{1,200}[:-]\d{1,7}[:-]|\d{1,7}:|(?:[\w.@+~-]{0,100}\/)*\.?[\w@+~-]{1,100}(?:\.[\w-]{1,12}){1,3}:(?!\/\/|\d)|(?:[\w.@+~-]{0,100}\/)*\.[\w-]{1,40}:(?!\/\/|\d))/;
const MAX_VIEW = 65536;
const MAX_LINE = 4096;

export function greppedView(text: string): { text: string; map: Int32Array } | undefined {
  const out: string[] = [];
  const starts: number[] = [];
  const offsets: number[] = [];
  let total = 0;
  let at = 0;
  while (at < text.length && total < MAX_VIEW) {
    let le = text.indexOf('\n', at);
    if (le === -1) le = text.length;
    const head = text.slice(at, Math.min(le, at + 240));
    work.reads += head.length;
    const m = PREFIX.exec(head);
    // Only lines whose content may hold a secret are read again (the screen every record passes).
    if (m && le - at - m[0].length > 0 && le - at <= MAX_LINE && mayHoldSecret(text.slice(at + m[0].length, le))) {
      const from = at + m[0].length;
      starts.push(from);
      offsets.push(total);
      out.push(text.slice(from, le));
      total += le - from + 1;
    }
    at = le + 1;
  }
  if (out.length === 0) return undefined;
  const view = out.join('\n');
  const map = new Int32Array(view.length + 1);
  for (let p = 0; p < out.length; p++) {
    const base = offsets[p];
    const len = out[p].length;
    for (let k = 0; k <= len; k++) map[base + k] = starts[p] + k;
  }
  map[view.length] = starts[out.length - 1] + out[out.length - 1].length;
  return { text: view, map };
}
