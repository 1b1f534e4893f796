// License blocks between BEGIN LICENSE and END LICENSE lines (Sublime Text and Sublime Merge keys,
// and the many tools that copied the form, any number of dashes and blanks). The lines inside that
// hold a digit (the hex groups, the license id) go; lines of letters only (the owner's name, "Single
// User License", "Unlimited User License") stay. A block is read to its END line or at most 64 lines.
import type { Span } from './text';
import { work } from './work';

const BEGIN = /^[ \t]{0,8}-{2,12}[ \t]{0,4}BEGIN[ \t]{1,4}LICEN[CS]E(?:[ \t]{1,4}KEY)?[ \t]{0,4}-{2,12}[ \t]*\r?$/gim;
const END = /^[ \t]{0,8}-{2,12}[ \t]{0,4}END[ \t]{1,4}LICEN[CS]E/i;
const DIGIT = /[0-9]/;
const MAX_LINES = 64;

export function findLicenseBlocks(text: string, spans: Span[]): void {
  if (!/BEGIN[ \t]{1,4}LICEN[CS]E/i.test(text)) return;
  work.reads += text.length;
  BEGIN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = BEGIN.exec(text))) {
    let ls = m.index + m[0].length + 1;
    for (let k = 0; k < MAX_LINES && ls < text.length; k++) {
      let le = text.indexOf('\n', ls);
      if (le === -1) le = text.length;
      if (le - ls > 512) break;
      work.reads += le - ls;
      const line = text.slice(ls, le).replace(/\r$/, '');
      if (END.test(line)) break;
      const v = line.trim();
      if (v && DIGIT.test(v)) spans.push({ start: ls + line.indexOf(v), end: ls + line.indexOf(v) + v.length, rule: 'license-block' });
      ls = le + 1;
    }
    BEGIN.lastIndex = Math.max(BEGIN.lastIndex, ls);
  }
}
