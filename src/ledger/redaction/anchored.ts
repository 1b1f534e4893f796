// A pattern that starts with a character class is tried at every position of
// the text: a megabyte of source code is a million attempts per pattern. The
// literal that every match must hold is found a hundred times faster. So a
// pattern that never crosses a line end runs only on the lines that hold its
// anchor: the same matches (a line starts after a line end, so ^, \b and
// look-behinds see what they saw in the whole text), at a fraction of the cost.
import { scan, work } from './work';

/**
 * Calls `visit` with each match of `re` (global; no match spans a line end) in `text`, in order,
 * run on the lines that hold a match of `anchor` (global; a part of every match of `re`).
 * m.index is an index in `text`; m.input is the line.
 */
export function scanLines(re: RegExp, anchor: RegExp, text: string, visit: (m: RegExpExecArray) => void): void {
  anchor.lastIndex = 0;
  let a: RegExpExecArray | null;
  while ((a = scan(anchor, text))) {
    const ls = text.lastIndexOf('\n', a.index) + 1;
    let le = text.indexOf('\n', a.index + a[0].length);
    if (le === -1) le = text.length;
    work.reads += le - ls;
    const line = text.slice(ls, le);
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = scan(re, line))) {
      if (m[0].length === 0) {
        re.lastIndex++;
        continue;
      }
      m.index += ls;
      visit(m);
    }
    if (le >= text.length) break;
    anchor.lastIndex = le + 1;
  }
}
