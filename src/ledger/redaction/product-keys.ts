// Windows (and Office) product keys: five groups of five characters, XXXXX-XXXXX-XXXXX-XXXXX-XXXXX.
// Keys are drawn from a 24-character alphabet with no vowels and no look-alike digits
// (BCDFGHJKMPQRTVWXY2346789; Windows 8 and later also place one N): a key of that alphabet goes
// wherever it stands. Any five groups of letters and digits go where the line names a product key
// (`slmgr /ipk`, ProductKey, "product key", a serial or CD key). One forward pass over the runs of
// letters, digits and dashes.
import type { Span } from './text';
import { work } from './work';

const RUN = new Uint8Array(65536);
for (let c = 48; c <= 57; c++) RUN[c] = 1;
for (let c = 65; c <= 90; c++) RUN[c] = RUN[c + 32] = 1;
RUN[45] = 1;
const KEY_ALPHABET = new Uint8Array(128);
for (const c of 'BCDFGHJKMPQRTVWXY2346789') KEY_ALPHABET[c.charCodeAt(0)] = 1;
const PRODUCT_KEY_CONTEXT = /\/ipk\b|product[ _-]?key|\bpkey\b|\bcd[ _-]?key|serial(?:[ _-]?(?:key|number))?\b|activation[ _-]?key|licen[cs]e[ _-]?key|dism\b.*\/productkey/i;

/** Five groups of five upper-case letters or digits. */
function groups(text: string, from: number): boolean {
  for (let k = 0; k < 29; k++) {
    const c = text.charCodeAt(from + k);
    if (k % 6 === 5) {
      if (c !== 45) return false;
    } else if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 90))) return false;
  }
  return true;
}

function keyAlphabet(text: string, from: number): boolean {
  let n = 0;
  let digits = 0;
  for (let k = 0; k < 29; k++) {
    if (k % 6 === 5) continue;
    const c = text.charCodeAt(from + k);
    if (c === 78) n++;
    else if (KEY_ALPHABET[c] !== 1) return false;
    if (c >= 48 && c <= 57) digits++;
  }
  return n <= 1 && digits >= 2 && digits <= 20;
}

export function findProductKeys(text: string, spans: Span[]): void {
  const n = text.length;
  if (n < 29 || !text.includes('-')) return;
  work.reads += n;
  let i = 0;
  while (i < n) {
    if (RUN[text.charCodeAt(i)] !== 1) {
      i++;
      continue;
    }
    const from = i;
    while (i < n && RUN[text.charCodeAt(i)] === 1) i++;
    if (i - from !== 29 || !groups(text, from)) continue;
    if (!keyAlphabet(text, from)) {
      let ls = from;
      while (ls > 0 && from - ls < 200 && text.charCodeAt(ls - 1) !== 10) ls--;
      work.reads += from - ls;
      if (!PRODUCT_KEY_CONTEXT.test(text.slice(ls, from))) continue;
    }
    spans.push({ start: from, end: i, rule: 'product-key' });
  }
}
