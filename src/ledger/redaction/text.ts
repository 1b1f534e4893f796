// Reading values out of free text: quoted strings to their closing quote
// (escapes honoured), shell words with their quoting, and the spans a
// detector marks for removal. Every loop here advances by at least one
// character per step and stops at a fixed bound, so reading is linear.

import { work } from './work';

export interface Span {
  start: number;
  end: number;
  rule: string;
}

export const MAX_VALUE = 4096;
const TRIPLE_DOUBLE = '"""';
const TRIPLE_SINGLE = "'''";

/** First characters of a placeholder that may hold spaces (!Ref DbPassword, <your key here>, {{ token }}, $(cat file)): only then is the rest of the line judged. */
export const OPENS_PLACEHOLDER = new Uint8Array(65536);
for (const c of '!<{[$%(') OPENS_PLACEHOLDER[c.charCodeAt(0)] = 1;

/** Index just past the quote that closes the one at `open`, or -1 (none within the bound). */
export function closingQuote(text: string, open: number, bound = MAX_VALUE): number {
  const q = text.charCodeAt(open);
  const escapes = q !== 39;
  const stop = Math.min(text.length, open + 1 + bound);
  for (let i = open + 1; i < stop; i++) {
    const c = text.charCodeAt(i);
    if (c === 92 && escapes) {
      i++;
      continue;
    }
    if (c === q) {
      // Inside single quotes, '' is one quote in YAML and SQL ('it''s') and a join in the shell: the value goes on.
      if (!escapes && i > open + 1 && text.charCodeAt(i + 1) === 39 && i + 2 < stop && text.charCodeAt(i + 2) !== 10) {
        i++;
        continue;
      }
      // The shell's quote inside single quotes, `'\''` (close, an escaped quote, open again): the value goes on.
      if (!escapes && text.charCodeAt(i + 1) === 92 && text.charCodeAt(i + 2) === 39 && text.charCodeAt(i + 3) === 39 && i + 4 < stop) {
        i += 3;
        continue;
      }
      work.reads += i - open;
      return i + 1;
    }
  }
  work.reads += stop - open;
  return -1;
}

export function lineEnd(text: string, from: number, bound = MAX_VALUE): number {
  const stop = Math.min(text.length, from + bound);
  for (let i = from; i < stop; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) {
      work.reads += i - from + 1;
      return i;
    }
  }
  work.reads += stop - from + 1;
  return stop;
}

export interface ValueOptions {
  /** The quote that encloses the whole name=value (a header inside -H "..."): the value stops there. */
  enclosing?: string;
  /** Characters that end an unquoted value besides whitespace. */
  stops?: string;
  /** Take an unquoted value to the end of the line (YAML `name: a passphrase with spaces`, header values). */
  toLineEnd?: boolean;
}

/**
 * The value starting at `i`: a quoted value is taken to its closing quote
 * (the span is what lies between the quotes), an unquoted one to the first
 * whitespace or stop character. Returns [start, end) or undefined when empty.
 */
// Stop sets as tables of code units, built once per set.
const STOP_TABLES = new Map<string, Uint8Array>();
function stopTable(stops: string): Uint8Array {
  let t = STOP_TABLES.get(stops);
  if (!t) {
    t = new Uint8Array(65536);
    for (let k = 0; k < stops.length; k++) t[stops.charCodeAt(k)] = 1;
    STOP_TABLES.set(stops, t);
  }
  return t;
}
const NO_STOPS = new Uint8Array(65536);

export function readValue(text: string, i: number, opts: ValueOptions = {}): [number, number] | undefined {
  const end = valueEnd(text, i, opts);
  return end === -1 ? undefined : [valueStart(text, i), end];
}

/** Where the value at `i` starts: past its opening quote, if it has one. */
export function valueStart(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if ((c === 34 || c === 39) && text.charCodeAt(i + 1) === c && text.charCodeAt(i + 2) === c) return i + 3;
  return c === 34 || c === 39 || c === 96 ? i + 1 : i;
}

/** readValue's end alone, or -1 where readValue finds no value: for a caller reading many values, no pair per value. */
export function valueEnd(text: string, i: number, opts: ValueOptions = {}): number {
  const c = text.charCodeAt(i);
  const enc = opts.enclosing ? opts.enclosing.charCodeAt(0) : -1;
  if (c === 34 || c === 39 || c === 96) {
    if (c === enc) return -1;
    // TOML's and Python's triple-quoted strings: the value ends at the closing triple.
    if (c !== 96 && text.charCodeAt(i + 1) === c && text.charCodeAt(i + 2) === c) {
      const close = text.indexOf(c === 34 ? TRIPLE_DOUBLE : TRIPLE_SINGLE, i + 3);
      const end = close === -1 || close - i > MAX_VALUE ? lineEnd(text, i + 3) : close;
      work.reads += end - i;
      return end > i + 3 ? end : -1;
    }
    const close = closingQuote(text, i);
    const end = close === -1 ? lineEnd(text, i + 1) : close - 1;
    return end > i + 1 ? end : -1;
  }
  const stop = Math.min(text.length, i + MAX_VALUE);
  const stops = opts.stops ? stopTable(opts.stops) : NO_STOPS;
  const blankEnds = !opts.toLineEnd;
  let j = i;
  for (; j < stop; j++) {
    const ch = text.charCodeAt(j);
    // An escaped character (\" inside "...", \ ) is part of the value.
    if (ch === 92 && j + 1 < stop && text.charCodeAt(j + 1) !== 10) {
      j++;
      continue;
    }
    if (ch === 10 || ch === 13 || ch === enc) break;
    if (blankEnds && (ch === 32 || ch === 9)) break;
    if (stops[ch] === 1) break;
  }
  work.reads += j - i + 1;
  let end = Math.min(j, stop);
  if (opts.toLineEnd) while (end > i && (text.charCodeAt(end - 1) === 32 || text.charCodeAt(end - 1) === 9)) end--;
  return end > i ? end : -1;
}

export interface Word {
  start: number;
  end: number;
  /** The word as the shell would pass it (quotes removed, escapes applied). */
  text: string;
}

/**
 * Shell words from `from` to the end of the simple command (newline, ;, |,
 * & unquoted) or `bound` characters. Good enough to find option values; the
 * guard has the real lexer.
 */
// Characters that neither end a word nor quote or escape (code units below 128; others are plain too).
const PLAIN = new Uint8Array(65536).fill(1);
for (const c of ' \t\n\r;|&)<>\'"\\') PLAIN[c.charCodeAt(0)] = 0;

export function shellWords(text: string, from: number, bound = 2000, maxWords = 200): Word[] {
  const words: Word[] = [];
  const stop = Math.min(text.length, from + bound);
  let i = from;
  while (i < stop && words.length < maxWords) {
    const c = text[i];
    if (c === ' ' || c === '\t') {
      i++;
      continue;
    }
    if (c === '\n' || c === '\r' || c === ';' || c === '|' || c === '&' || c === ')' || c === '<' || c === '>') break;
    const start = i;
    let val = '';
    while (i < stop) {
      // A run of plain characters is taken as one slice.
      const run = i;
      while (i < stop && PLAIN[text.charCodeAt(i)] === 1) i++;
      if (i > run) val += text.slice(run, i);
      if (i >= stop) break;
      const ch = text[i];
      if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === ')' || ch === '<' || ch === '>') break;
      // & ; | inside a word, between two of its characters (-px&9#Kq;2): part of a pasted secret, not an operator.
      // (The shell would split there, but the output shows what was typed, and a cut secret leaks its tail.)
      if (ch === ';' || ch === '|' || ch === '&') {
        const next = i + 1 < stop ? text.charCodeAt(i + 1) : 32;
        if (PLAIN[next] !== 1 || i === start) break;
        val += ch;
        i++;
        continue;
      }
      if (ch === "'" || ch === '"') {
        const close = closingQuote(text, i, stop - i);
        const end = close === -1 ? lineEnd(text, i + 1, stop - i) : close - 1;
        const inner = text.slice(i + 1, end);
        val += ch === '"' ? inner.replace(/\\(["\\$`])/g, '$1') : inner;
        i = close === -1 ? end : close;
        continue;
      }
      if (ch === '\\' && i + 1 < stop) {
        val += text[i + 1];
        i += 2;
        continue;
      }
      val += ch;
      i++;
    }
    words.push({ start, end: i, text: val });
  }
  work.reads += i - from + 1;
  return words;
}
