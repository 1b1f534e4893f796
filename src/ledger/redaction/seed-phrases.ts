// BIP39 seed phrases (wallet recovery phrases): twelve or more words in a row, every one from the
// BIP39 English list, wherever they stand (`mnemonic: "…"`, MNEMONIC=…, the line after
// solana-keygen's "Save this seed phrase", a numbered list of a wallet's backup screen). The list
// holds none of English's commonest words (the, a, is, of, to, and), so prose never has twelve in a
// row; a run in the list's alphabetical order is the list itself (a dictionary file), not a phrase.
// One forward pass over the text: each word is read once.
import { BIP39_SET } from './bip39-words';
import type { Span } from './text';
import { work } from './work';

/** Shortest phrase BIP39 defines (12, 15, 18, 21 or 24 words). */
const MIN_WORDS = 12;
/** Longest gap between two words of a phrase: `", "`, ` 12. `, a line end and its number. */
const MAX_GAP = 12;

const LETTER = new Uint8Array(65536);
for (let c = 65; c <= 90; c++) LETTER[c] = LETTER[c + 32] = 1;

/** What may stand between two words: blanks, commas, and numbers with . or ) (1. abandon 2. ability); not quotes ("olive","path" are two JSON strings). */
const GAP = new Uint8Array(65536);
for (const c of ' \t\r\n,0123456789.)') GAP[c.charCodeAt(0)] = 1;

/** Is text[from, to) a gap between two words of one phrase? A line end only in a numbered list. */
function isGap(text: string, from: number, to: number): boolean {
  if (to - from < 1 || to - from > MAX_GAP) return false;
  let newline = false;
  let digit = false;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (GAP[c] !== 1) return false;
    if (c === 10) newline = true;
    else if (c >= 48 && c <= 57) digit = true;
  }
  return !newline || digit;
}

/** The word text[from, to) in the list (lower case, upper case, or capitalized: the first word of a line), or undefined. */
function listWord(text: string, from: number, to: number): string | undefined {
  const n = to - from;
  if (n < 3 || n > 8) return undefined;
  const w = text.slice(from, to);
  const lower = w.toLowerCase();
  if (w !== lower && w !== w.toUpperCase() && w.slice(1) !== lower.slice(1)) return undefined;
  return BIP39_SET.has(lower) ? lower : undefined;
}

export function findSeedPhrases(text: string, spans: Span[]): void {
  const n = text.length;
  if (n < MIN_WORDS * 4 - 1) return;
  work.reads += n;
  // First the shape alone: twelve words of three to eight letters in a row, with gaps a phrase may have. Only such
  // runs are looked up in the list (a lookup slices the word: a megabyte of output has a hundred thousand words).
  let start = -1;
  let end = -1;
  let count = 0;
  let i = 0;
  while (i <= n) {
    const c = i < n ? text.charCodeAt(i) : 32;
    if (i < n && LETTER[c] !== 1) {
      i++;
      continue;
    }
    const ws = i;
    while (i < n && LETTER[text.charCodeAt(i)] === 1) i++;
    const len = i - ws;
    const before = ws > 0 ? text.charCodeAt(ws - 1) : 32;
    const after = i < n ? text.charCodeAt(i) : 32;
    const glued = before === 95 || before === 45 || after === 95 || after === 45 || (after >= 48 && after <= 57);
    if (len < 3 || len > 8 || glued) {
      if (count >= MIN_WORDS) phrasesIn(text, start, end, spans);
      count = 0;
      if (i >= n) break;
      continue;
    }
    if (count > 0 && isGap(text, end, ws)) count++;
    else {
      if (count >= MIN_WORDS) phrasesIn(text, start, end, spans);
      start = ws;
      count = 1;
    }
    end = i;
    if (i >= n) {
      if (count >= MIN_WORDS) phrasesIn(text, start, end, spans);
      break;
    }
  }
}

/** The phrases in text[from, to), a run of words of a phrase's shape: each word looked up in the list. */
function phrasesIn(text: string, from: number, to: number, spans: Span[]): void {
  const n = to;
  // The run of list words so far: where it starts, where its last word ends, how many, the last word, and whether each word followed the one before in the list's order.
  let runStart = -1;
  let runEnd = -1;
  let count = 0;
  let last = '';
  let sorted = true;
  const close = () => {
    if (count >= MIN_WORDS && !sorted) spans.push({ start: runStart, end: runEnd, rule: 'seed-phrase' });
    runStart = -1;
    count = 0;
  };
  let i = from;
  while (i < n) {
    if (LETTER[text.charCodeAt(i)] !== 1) {
      i++;
      continue;
    }
    const ws = i;
    while (i < n && LETTER[text.charCodeAt(i)] === 1) i++;
    // A word is whole: no digit or name character glued to it (abandon_ability, able2).
    const before = ws > 0 ? text.charCodeAt(ws - 1) : 32;
    const after = i < n ? text.charCodeAt(i) : 32;
    const glued = before === 95 || before === 45 || after === 95 || after === 45 || (after >= 48 && after <= 57);
    const w = glued ? undefined : listWord(text, ws, i);
    if (!w) {
      if (runStart !== -1) close();
      continue;
    }
    if (runStart !== -1 && isGap(text, runEnd, ws)) {
      if (w <= last) sorted = false;
      count++;
    } else {
      if (runStart !== -1) close();
      runStart = ws;
      count = 1;
      sorted = true;
    }
    last = w;
    runEnd = i;
  }
  if (runStart !== -1) close();
}
