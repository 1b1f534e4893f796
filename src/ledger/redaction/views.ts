// A normalized view of the text for the detectors: what a terminal or an
// editor shows rather than the bytes. ANSI colour codes are dropped, box
// drawing cell bars read as `|`, typographic quotes, full-width colons and
// no-break spaces as their ASCII forms, `\040` (history files) as a space,
// and a secret split over lines is joined: backslash continuations ("a"\
// "b" too), YAML block scalars (`key: >-` and indented lines), header
// folding (`Bearer` then an indented token) and wrapped fragments (indented
// continuation lines, `fold -w` output). Each view index maps back to the
// text, so spans found in the view remove the original characters.
import { work } from './work';

const FRAG = new Uint8Array(65536);
for (let c = 0; c < 128; c++) if (/[A-Za-z0-9+/=_.~-]/.test(String.fromCharCode(c))) FRAG[c] = 1;

/** Single characters read as another. */
const AS = new Int32Array(65536).fill(-1);
for (const c of '\u2502\u2503\u2551\u250a\u250b\u2506\u2507') AS[c.charCodeAt(0)] = 124; // |
for (const c of '\u00a0\u2007\u202f\u2009\u200a\u3000') AS[c.charCodeAt(0)] = 32;
for (const c of '\u201c\u201d\u201e\u201f\u00ab\u00bb\u2033') AS[c.charCodeAt(0)] = 34;
for (const c of '\u2018\u2019\u201a\u201b\u2032') AS[c.charCodeAt(0)] = 39;
for (const c of '\u2500\u2501\u2550\u2504\u2505\u2508\u2509') AS[c.charCodeAt(0)] = 45; // -
for (const c of '\u253c\u251c\u2524\u252c\u2534\u250c\u2510\u2514\u2518\u256a\u256b\u256c\u2560\u2563\u2566\u2569\u2554\u2557\u255a\u255d\u253f\u2542\u254b') AS[c.charCodeAt(0)] = 43; // +
AS[0xff1a] = 58; // ：
AS[0xff1d] = 61; // ＝

/** Widths that wrapping tools use (fold -w 80, base64 -w 76, PEM 64). */
const WRAP_WIDTHS = new Set([60, 64, 70, 72, 76, 80, 100, 120]);
const MAX_JOINS = 24;
const MAX_VIEW = 65536;
const SCHEME_END = /(?:Bearer|bearer|BEARER|Basic|Token|token)$/;

let outBuf = new Uint16Array(0);
let mapBuf = new Int32Array(0);

/**
 * The normalized view of the lines it changes (each with the line before and after), joined by
 * line ends that stand for the text between them; or undefined when it changes nothing. Only
 * those parts are read again, so a rare change in a megabyte costs its lines, not a second pass.
 */
/** The text says it is quoted-printable (a mail's part): `=` at a line's end is a soft line break, not part of the text. */
let quotedPrintable = false;

export function normalizedView(text: string): { text: string; map: Int32Array } | undefined {
  const n = text.length;
  quotedPrintable = text.includes('=\n') || text.includes('=\r\n') ? /quoted-printable/i.test(text) : false;
  const parts = changedParts(text);
  if (!parts) return undefined;
  if (outBuf.length < n + 1) {
    outBuf = new Uint16Array(n + 1);
    mapBuf = new Int32Array(n + 1);
  }
  let k = 0;
  for (let p = 0; p < parts.length; p += 2) {
    if (p > 0) {
      mapBuf[k] = parts[p - 1];
      outBuf[k++] = 10;
    }
    k = build(text, parts[p], parts[p + 1], k);
  }
  mapBuf[k] = parts[parts.length - 1];
  return { text: Buffer.from(outBuf.buffer, 0, k * 2).toString('utf16le'), map: mapBuf.subarray(0, k + 1) };
}

/** Normalizes text[from, to) into the buffers at k; returns the new k. */
function build(text: string, from: number, to: number, k: number): number {
  const out = outBuf;
  const map = mapBuf;
  let lineStart = from;
  let joins = 0;
  work.reads += to - from;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 27 && text.charCodeAt(i + 1) === 91) {
      // ESC [ params letter
      let j = i + 2;
      while (j < to && j - i < 24 && ((text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57) || text.charCodeAt(j) === 59)) j++;
      if (j < to && ASCII_LETTER.test(text[j])) {
        i = j;
        continue;
      }
    }
    if (c === 92) {
      const e = text.charCodeAt(i + 1);
      if (e === 48 && text.charCodeAt(i + 2) === 52 && text.charCodeAt(i + 3) === 48) {
        map[k] = i;
        out[k++] = 32;
        i += 3;
        continue;
      }
      const nl = e === 10 ? i + 1 : e === 13 && text.charCodeAt(i + 2) === 10 ? i + 2 : -1;
      if (nl !== -1 && nl < to) {
        // Backslash continuation: drop it, the line end and the next line's indentation ("a"\ "b" -> "ab").
        let j = nl + 1;
        while (j < to && j - nl < 80 && (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9)) j++;
        const last = k > 0 ? out[k - 1] : -1;
        if ((last === 34 || last === 39) && text.charCodeAt(j) === last) {
          k--;
          j++;
        }
        i = j - 1;
        lineStart = j;
        continue;
      }
    }
    // A quoted-printable soft line break: the `=` and the line end go, the text runs on.
    if (c === 61 && quotedPrintable && (text.charCodeAt(i + 1) === 10 || (text.charCodeAt(i + 1) === 13 && text.charCodeAt(i + 2) === 10))) {
      i += text.charCodeAt(i + 1) === 13 ? 2 : 1;
      lineStart = i + 1;
      continue;
    }
    if (c === 10) {
      // At most MAX_JOINS lines in a row are joined: a wrapped secret, not a megabyte of base64 as one word.
      const join = joins < MAX_JOINS ? joinAt(text, i, lineStart, to, true, k) : undefined;
      joins = join ? joins + 1 : 0;
      if (join) {
        k = join.k;
        if (join.space) {
          map[k] = i;
          out[k++] = 32;
        }
        i = join.next - 1;
        lineStart = join.next;
        continue;
      }
      lineStart = i + 1;
    }
    if (c === 34 || c === 39) {
      // "a" + "b" and 'a' +\n 'b': string concatenation read as one string.
      const j = concatEnd(text, i, to);
      if (j !== -1) {
        i = j;
        continue;
      }
    }
    const a = c >= 128 ? AS[c] : -1;
    map[k] = i;
    out[k++] = a !== -1 ? a : c;
  }
  return k;
}

/** After a closing quote at i: blanks, +, blanks (a line end), the same quote: the index of that quote, else -1. */
function concatEnd(text: string, i: number, to: number): number {
  const q = text.charCodeAt(i);
  let j = i + 1;
  while (j < to && j - i < 8 && (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9)) j++;
  if (text.charCodeAt(j) !== 43) return -1;
  j++;
  const from = j;
  while (j < to && j - from < 64 && (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9 || text.charCodeAt(j) === 10 || text.charCodeAt(j) === 13)) j++;
  return j < to && text.charCodeAt(j) === q && j > i + 1 ? j : -1;
}

/** A backslash continuation inside a token or a string: a key character or quote before it, and after the next line's indentation. */
function continuesToken(text: string, i: number): boolean {
  const p = i > 0 ? text.charCodeAt(i - 1) : 0;
  if (FRAG[p] !== 1 && p !== 34 && p !== 39) return false;
  let j = text.charCodeAt(i + 1) === 13 ? i + 3 : i + 2;
  while (j < text.length && j - i < 80 && (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9)) j++;
  const q = text.charCodeAt(j);
  return FRAG[q] === 1 || q === 34 || q === 39;
}

/** Characters where the view may change something (found by one regex scan, not a loop over every character). */
const CANDIDATE = /[\x1b+\n\u00a0\u00ab\u00bb\u2007\u2009\u200a\u2018-\u201f\u202f\u2032\u2033\u2500-\u257f\u3000\uff1a\uff1d]/g;
// Module constants: a regex literal in a function is a new RegExp per call (joinAt runs per line end).
const ASCII_LETTER = /[A-Za-z]/;
const BLOCK_SCALAR = /:[ \t]{1,4}[>|][+-]?$/;
const BLOCK_INDICATOR = /[>|]/;
const ASSIGNMENT_IN_WORD = /=[^=]/;
/** Last characters of a line that BLOCK_SCALAR (> | + -) or SCHEME_END (Bearer, BEARER, Basic, Token) can end on. */
const BLOCK_OR_SCHEME_LAST = new Uint8Array(65536);
for (const c of '>|+-rRcn') BLOCK_OR_SCHEME_LAST[c.charCodeAt(0)] = 1;

/** Line ranges [start, end) the view changes, with a line of context each side, merged; undefined when none. */
function changedParts(text: string): number[] | undefined {
  const n = text.length;
  work.reads += n;
  let parts: number[] | undefined;
  let lineStart = 0;
  let hot = false;
  const add = (ls: number, le: number) => {
    // The line before and the line after, too.
    const from = ls > 0 ? text.lastIndexOf('\n', ls - 2) + 1 : 0;
    let to = le < n ? text.indexOf('\n', le + 1) : n;
    if (to === -1) to = n;
    parts ??= [];
    if (parts.length > 0 && from <= parts[parts.length - 1]) {
      total += Math.max(0, to - parts[parts.length - 1]);
      parts[parts.length - 1] = Math.max(parts[parts.length - 1], to);
    } else {
      parts.push(from, to);
      total += to - from;
    }
  };
  // At most MAX_VIEW characters are read again: wrapped and coloured secrets sit in outputs of a few
  // screens; a megabyte of continuation lines would otherwise be detected twice.
  let total = 0;
  CANDIDATE.lastIndex = 0;
  // Backslash continuations and \040 escapes, found by indexOf (a text of backslashes is not a million candidates).
  const escapes: number[] = [];
  for (const needle of quotedPrintable ? ['\\\n', '\\\r\n', '\\040', '=\n', '=\r\n'] : ['\\\n', '\\\r\n', '\\040']) {
    for (let i = text.indexOf(needle); i !== -1 && escapes.length < 4096; i = text.indexOf(needle, i + needle.length)) {
      if (needle === '\\040' || needle[0] === '=' || continuesToken(text, i)) escapes.push(i);
    }
  }
  escapes.sort((a, b) => a - b);
  let e = 0;
  // An escape on the line being read makes it hot; one on an earlier line adds that whole line.
  const escapeAt = (at: number): void => {
    if (at >= lineStart) {
      hot = true;
      return;
    }
    const le = text.indexOf('\n', at);
    add(text.lastIndexOf('\n', at) + 1, le === -1 ? n : le);
  };
  // test, not exec: the candidate is one character, at lastIndex - 1, and no match array is built per line end.
  while (total < MAX_VIEW && CANDIDATE.test(text)) {
    const i = CANDIDATE.lastIndex - 1;
    // Escapes on lines before this candidate make their lines hot.
    while (e < escapes.length && escapes[e] < i) escapeAt(escapes[e++]);
    const c = text.charCodeAt(i);
    if (c === 10) {
      let join = false;
      if (i >= 8 && i + 1 < n) {
        const p = text.charCodeAt(i - 1);
        const q = text.charCodeAt(i + 1);
        if ((FRAG[p] === 1 || p === 45 || p === 62 || p === 124) && (q === 32 || q === 9 || FRAG[q] === 1)) join = joinAt(text, i, lineStart, n, false, 0) !== undefined;
      }
      if (hot || join) {
        let next = text.indexOf('\n', i + 1);
        if (next === -1) next = n;
        add(lineStart, join ? next : i);
      }
      hot = false;
      lineStart = i + 1;
      continue;
    }
    if (c === 27 || (c >= 128 && AS[c] !== -1)) hot = true;
    else if (c === 43 && i > 0) {
      let b = i - 1;
      while (b > 0 && i - b < 8 && (text.charCodeAt(b) === 32 || text.charCodeAt(b) === 9)) b--;
      const q = text.charCodeAt(b);
      if ((q === 34 || q === 39) && concatEnd(text, b, n) !== -1) hot = true;
    }
  }
  while (e < escapes.length && total < MAX_VIEW) escapeAt(escapes[e++]);
  if (hot) add(lineStart, n);
  return parts;
}

/**
 * Whether the line end at i joins the next line to this one: returns the view length after any
 * characters taken back (a block scalar's `>-`), whether a space stands for the line end, and
 * where the text goes on. `out` is false when only asking.
 */
function joinAt(text: string, i: number, lineStart: number, to: number, out: boolean, k: number): { k: number; space: boolean; next: number } | undefined {
  let le = text.indexOf('\n', i + 1);
  if (le === -1 || le > to) le = to;
  let j = i + 1;
  while (j < le && j - i < 80 && (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9)) j++;
  const ind = j - i - 1;
  let e = le;
  if (e > j && text.charCodeAt(e - 1) === 13) e--;
  while (e > j && (text.charCodeAt(e - 1) === 32 || text.charCodeAt(e - 1) === 9)) e--;
  const fragLen = e - j;
  if (fragLen < 4 || fragLen > 4096) return undefined;
  for (let t = j; t < e; t++) if (FRAG[text.charCodeAt(t)] !== 1) return undefined;
  work.reads += le - i;
  // This line, without trailing blanks.
  let pe = i;
  if (pe > lineStart && text.charCodeAt(pe - 1) === 13) pe--;
  while (pe > lineStart && (text.charCodeAt(pe - 1) === 32 || text.charCodeAt(pe - 1) === 9)) pe--;
  let w = pe;
  while (w > lineStart && pe - w < 4096 && FRAG[text.charCodeAt(w - 1)] === 1) w--;
  const wordLen = pe - w;
  // The line's last 80 characters, sliced only when they can end as a block scalar's or a scheme's.
  const line = pe > lineStart && BLOCK_OR_SCHEME_LAST[text.charCodeAt(pe - 1)] === 1 ? text.slice(Math.max(lineStart, pe - 80), pe) : '';
  // key: >-  /  key: |  then an indented fragment: the value starts on the next line.
  const block = line ? BLOCK_SCALAR.exec(line) : null;
  if (block && ind >= 1 && fragLen >= 8) {
    const drop = block[0].length - block[0].search(BLOCK_INDICATOR) + (i - pe);
    return { k: out ? k - drop : k, space: false, next: j };
  }
  if (ind >= 1 && line && SCHEME_END.test(line) && fragLen >= 16) return { k: out ? k - (i - pe) : k, space: true, next: j };
  // A wrapped fragment: indented continuation of a long fragment, or fold -w output (whole lines of one fragment).
  if (ind >= 1 && wordLen >= 16 && fragLen >= 8) {
    const lineIndent = lineIndentOf(text, lineStart, pe);
    if (lineIndent === ind || w === lineStart + lineIndent || text.charCodeAt(w - 1) === 32) return { k: out ? k - (i - pe) : k, space: false, next: j };
  }
  if (ind === 0 && WRAP_WIDTHS.has(wordLen) && w === lineStart && fragLen <= wordLen && !ASSIGNMENT_IN_WORD.test(text.slice(w, pe)) && !ASSIGNMENT_IN_WORD.test(text.slice(j, e))) return { k: out ? k - (i - pe) : k, space: false, next: j };
  return undefined;
}

function lineIndentOf(text: string, ls: number, pe: number): number {
  let t = ls;
  while (t < pe && (text.charCodeAt(t) === 32 || text.charCodeAt(t) === 9)) t++;
  return t - ls;
}
