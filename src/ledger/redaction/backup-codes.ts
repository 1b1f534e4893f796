// Two-factor backup and recovery codes: after a heading (`backup codes:`, `Recovery codes:`,
// `Your emergency scratch codes are:`, GitHub's github-recovery-codes.txt) the codes on the same
// line, or one (or a few) per line below it (numbered or not), to the first line of another shape.
// A code is a run of letters and digits with a digit in it, or groups of them joined by - or a blank.
import type { Span } from './text';
import { scan, work } from './work';

const HEADING = /\b(?:backup|recovery|scratch|emergency)[ _-](?:verification[ _-])?codes?\b[^\n:]{0,40}?(?::|\.txt\b|$)/gim;
const CODE = /^[A-Za-z0-9]{4,12}(?:-[A-Za-z0-9]{4,12}){0,3}$/;
const DIGIT = /[0-9]/;
const NUMBERING = /^[ \t]{0,8}(?:\d{1,2}[.)][ \t]{1,4}|[-*•][ \t]{1,4})?/;

/** The codes in text[s, e) as spans, when every blank-separated word is one (a pair of digit groups counts as one). */
function codesIn(text: string, s: number, e: number, out: [number, number][]): boolean {
  const line = text.slice(s, e);
  const lead = NUMBERING.exec(line)![0].length;
  const body = line.slice(lead).replace(/[ \t\r]+$/, '');
  if (!body) return false;
  // Google's `8412 7730`: two groups of digits are one code.
  if (/^\d{3,5} \d{3,5}$/.test(body)) {
    out.push([s + lead, s + lead + body.length]);
    return true;
  }
  const words = body.split(/[ \t,]+/);
  if (words.length > 16) return false;
  let at = s + lead;
  const found: [number, number][] = [];
  for (const w of words) {
    if (!CODE.test(w) || !DIGIT.test(w)) return false;
    const k = text.indexOf(w, at);
    found.push([k, k + w.length]);
    at = k + w.length;
  }
  out.push(...found);
  return found.length > 0;
}

const HINT = /backup|recovery|scratch|emergency/i;

export function findBackupCodes(text: string, spans: Span[]): void {
  if (!HINT.test(text)) return;
  HEADING.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = scan(HEADING, text))) {
    const found: [number, number][] = [];
    let ls = m.index + m[0].length;
    let le = text.indexOf('\n', ls);
    if (le === -1) le = text.length;
    // On the heading's own line, after it.
    if (le - ls <= 400 && text.slice(ls, le).trim()) codesIn(text, ls, le, found);
    else {
      // Below it: blank lines (at most two) and then code lines.
      let blanks = 0;
      ls = le + 1;
      for (let k = 0; k < 64 && ls < text.length; k++) {
        le = text.indexOf('\n', ls);
        if (le === -1) le = text.length;
        if (le - ls > 400) break;
        work.reads += le - ls;
        if (!text.slice(ls, le).trim()) {
          if (found.length > 0 || ++blanks > 2) break;
        } else if (!codesIn(text, ls, le, found)) break;
        ls = le + 1;
      }
    }
    work.reads += le - m.index;
    for (const [s, e] of found) spans.push({ start: s, end: e, rule: 'backup-codes' });
    if (HEADING.lastIndex < ls) HEADING.lastIndex = Math.min(text.length, ls);
  }
}
