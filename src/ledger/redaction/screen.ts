// A cheap test run before the detectors: can this string hold a secret at
// all? Most strings a hook records are short and plain (a command, a path, a
// tool name, an id), and loading and first running the detectors costs a
// hook several milliseconds. A string passes the screen only when it has
// none of what any detector keys on: the literals derived from the detector
// tables at build time (screen-data.ts), a key-like run of characters, a URL,
// an escape, a line end, a character beyond ASCII, or the shapes of the
// multi-field formats (pgpass colons, keypair arrays, seed phrases, cookie jars).
import { SCREEN } from '../../generated/redaction-screen';

/** Longer strings go to the detectors (the screen is for the many short ones). */
export const SCREEN_MAX = 4096;

/** Literals by their first two characters, lower-cased for the words (ASCII only: other characters fail the screen first). */
function pairTable(list: readonly string[], lower: boolean): { first: Uint8Array; byPair: Map<number, string[]> } {
  const first = new Uint8Array(128 * 128);
  const byPair = new Map<number, string[]>();
  for (const raw of list) {
    const w = lower ? raw.toLowerCase() : raw;
    if (w.length < 2) throw new Error(`redaction screen literal ${JSON.stringify(raw)}: at least two characters`);
    const key = (w.charCodeAt(0) & 127) * 128 + (w.charCodeAt(1) & 127);
    first[key] = 1;
    byPair.set(key, [...(byPair.get(key) ?? []), w]);
  }
  return { first, byPair };
}

const WORDS = pairTable(SCREEN.words, true);
const HINTS = pairTable(SCREEN.hints, false);
// In a plain word, a hint that is a word of five letters or more (Bearer, token, ecret) is no prefix a value follows
// without a blank; a token it introduces is a key-like run, which the run check sees.
const PLAIN_HINTS = pairTable(SCREEN.hints.filter((h) => !/^[A-Za-z]{5,}$/.test(h)), false);
const PROGRAMS = new Map(Object.entries(SCREEN.programs));

/** Characters of a key-like run ([A-Za-z0-9+/=_.~-]): 1 other, 2 digit, 3 upper case, 4 lower case. */
const RUN_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[0-9]/.test(ch)) RUN_CLASS[c] = 2;
  else if (/[A-Z]/.test(ch)) RUN_CLASS[c] = 3;
  else if (/[a-z]/.test(ch)) RUN_CLASS[c] = 4;
  else if (/[+/=_.~-]/.test(ch)) RUN_CLASS[c] = 1;
}
/** A word boundary for program names: blanks and the shell's delimiters. */
const DELIMITER = new Uint8Array(128);
for (const c of ' \t;&|(`\'"/=<>') DELIMITER[c.charCodeAt(0)] = 1;

function matchesAt(s: string, i: number, table: { first: Uint8Array; byPair: Map<number, string[]> }, lower: boolean): boolean {
  const c0 = lower ? s.charCodeAt(i) | (s.charCodeAt(i) >= 65 && s.charCodeAt(i) <= 90 ? 32 : 0) : s.charCodeAt(i);
  const c1raw = s.charCodeAt(i + 1);
  if (c1raw >= 128) return false; // the screen stops at it on the next character
  const c1 = lower ? c1raw | (c1raw >= 65 && c1raw <= 90 ? 32 : 0) : c1raw;
  const key = c0 * 128 + c1;
  if (table.first[key] === 0) return false;
  for (const w of table.byPair.get(key)!) {
    if (i + w.length > s.length) continue;
    let k = 2;
    for (; k < w.length; k++) {
      let c = s.charCodeAt(i + k);
      if (lower && c >= 65 && c <= 90) c |= 32;
      if (c !== w.charCodeAt(k)) break;
    }
    if (k === w.length) return true;
  }
  return false;
}

/** A value of one plain word or path: letters, digits and . _ / - only (a branch, a file, a tool name, an id). */
const PLAIN_WORD = /^[A-Za-z0-9._/-]{0,256}$/;

/**
 * As mayHoldSecret, for a string that is a value (not a key): a value of one plain word is not judged by the
 * sensitive words it contains (`master`, `feature/login`, `src/auth/token.ts`), for with no separator nothing can
 * follow such a word as its value; token prefixes and key-like runs still count. A key is always judged by its words:
 * the value under `password` is what the detectors then read.
 */
export function mayHoldSecretValue(s: string): boolean {
  return mayHoldSecret(s, !PLAIN_WORD.test(s));
}

/** False only when no detector can find a secret in `s` (`words` false: a plain word, judged without its sensitive words). */
export function mayHoldSecret(s: string, words = true): boolean {
  const n = s.length;
  if (n > SCREEN_MAX) return true;
  let colons = 0;
  let commas = 0;
  let semicolons = 0;
  let equals = 0;
  let spaces = 0;
  let run = 0;
  let runDigit = false;
  let runUpper = false;
  let wordStart = 0;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? s.charCodeAt(i) : 32;
    // Line ends, escapes, colour codes and characters beyond ASCII: the detectors' views decode or normalize them.
    if ((c < 32 && c !== 9) || c >= 127 || c === 92) return true;
    const cls = RUN_CLASS[c];
    if (cls !== 0) {
      run++;
      if (cls === 2) runDigit = true;
      else if (cls === 3) runUpper = true;
    } else {
      // A key-like run: mixed case and digits (random keys, base58, product keys), or long with digits (hex keys).
      if ((run >= 16 && runDigit && runUpper) || (run >= 40 && runDigit)) return true;
      run = 0;
      runDigit = false;
      runUpper = false;
    }
    if (c === 58) colons++;
    else if (c === 44) commas++;
    else if (c === 59) semicolons++;
    else if (c === 61) equals++;
    else if (c === 32) spaces++;
    // '…' + '…': the normalized view joins concatenated strings.
    if (c === 43 && i > 0 && i + 1 < n && (quoteNear(s, i, -1) || quoteNear(s, i, 1))) return true;
    if (i + 1 < n) {
      if (words ? matchesAt(s, i, WORDS, true) || matchesAt(s, i, HINTS, false) : matchesAt(s, i, PLAIN_HINTS, false)) return true;
      if (c === 58 && s.charCodeAt(i + 1) === 47 && s.charCodeAt(i + 2) === 47) return true; // ://
    }
    // A program whose secret options need no sensitive word (mysql -p…, curl -u …).
    if (i === n || c === 32 || c === 9 || DELIMITER[c] === 1) {
      if (i > wordStart && programMatters(s, s.slice(wordStart, i))) return true;
      wordStart = i + 1;
    }
  }
  // pgpass lines, keypair arrays, seed phrases, cookie jars (name=value; Path=/).
  return colons >= 4 || commas >= 31 || spaces >= 11 || (semicolons > 0 && equals > 0);
}

function quoteNear(s: string, i: number, dir: number): boolean {
  for (let k = i + dir, t = 0; k >= 0 && k < s.length && t < 4; k += dir, t++) {
    const c = s.charCodeAt(k);
    if (c === 34 || c === 39 || c === 96) return true;
    if (c !== 32 && c !== 9) return false;
  }
  return false;
}

function programMatters(s: string, word: string): boolean {
  const p = PROGRAMS.get(word);
  if (p === undefined) return false;
  if (p === true) return true;
  for (const flag of p) if (s.includes(flag)) return true;
  return false;
}
