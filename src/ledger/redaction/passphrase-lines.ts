// Passphrases are words with blanks between them, where the readers of a
// value stop at the first blank:
// - a config line whose value runs to the line's end (`signing.password=x pebble
//   mango ochre`, a .properties or .env file): a value found at a line's start
//   goes on over the words that follow it, when they are a passphrase's words
//   (letters, or a number alone) and end the line;
// - a variable's name then `is:` in prose (`BORG_PASSPHRASE is: otter dune cobalt drift`).
// And a value a terminal wrapped: a secret that ends a full-width line goes on at the start of the next,
// when that line is one word of a key's alphabet (`heroku config` of a long key).
import { isMessageAbout, isPlaceholder, isSensitiveName } from './names';
import type { Span } from './text';
import { work } from './work';

const LINE_NAME = /(?:^|\n)[ \t]{0,40}(?:export[ \t]{1,4})?["']?[A-Za-z_][\w.-]{0,63}["']?[ \t]{0,8}[=:][ \t]{0,8}["']?$/;
const PHRASE_REST = /^(?:[ \t]{1,4}(?:[A-Za-z]{2,14}|\d{1,4})){1,8}[ \t]*(?=\r?\n|$)/;
const LABELLED = /\b([A-Z][A-Z0-9]{1,30}(?:_[A-Z0-9]{1,30}){1,5})[ \t]{1,3}(?:is|was)[ \t]{0,3}:?[ \t]{1,3}([^\s(][^\n(]{2,200}?)[ \t]*(?=\(|\r?\n|$)/g;

/** Spans at a config line's start stretched over the passphrase words that end the line. */
export function extendToPhrases(text: string, spans: Span[]): void {
  for (const sp of spans) {
    const c = text.charCodeAt(sp.end);
    if (c !== 32 && c !== 9) continue;
    const before = text.slice(Math.max(0, sp.start - 120), sp.start);
    work.reads += before.length;
    if (!LINE_NAME.test(before)) continue;
    const rest = PHRASE_REST.exec(text.slice(sp.end, sp.end + 160));
    if (rest) sp.end += rest[0].trimEnd().length;
  }
}

/** `NAME is: words`: the words, when NAME names a secret. */
export function findLabelledPhrases(text: string, spans: Span[]): void {
  if (!text.includes(' is') && !text.includes(' was')) return;
  LABELLED.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = LABELLED.exec(text))) {
    work.reads += m[0].length;
    const v = m[2].trimEnd();
    if (!isSensitiveName(m[1]) || isPlaceholder(v) || isMessageAbout(v) || v.startsWith('[REDACTED')) continue;
    const start = m.index + m[0].length - m[2].length;
    spans.push({ start, end: start + v.length, rule: 'prose' });
  }
}

const WRAP_MIN = 60;
const PIECE = /^[A-Za-z0-9+/=_.~-]{4,400}\r?$/;

/** The next line's single word, after a secret that ends a line of at least WRAP_MIN characters: the rest of it. */
export function wrappedRests(text: string, spans: Span[]): void {
  const n = spans.length;
  for (let i = 0; i < n; i++) {
    const sp = spans[i];
    const c = text.charCodeAt(sp.end);
    if (c !== 10 && c !== 13) continue;
    // The line's length, looked for no further back than WRAP_MIN: only whether it reaches that.
    const back = text.slice(Math.max(0, sp.end - WRAP_MIN), sp.end);
    if (back.length < WRAP_MIN || back.includes('\n')) continue;
    const ns = text.indexOf('\n', sp.end) + 1;
    if (ns === 0) continue;
    let ne = text.indexOf('\n', ns);
    if (ne === -1) ne = text.length;
    if (ne - ns > 401) continue;
    work.reads += ne - ns;
    const line = text.slice(ns, ne);
    if (!PIECE.test(line) || !/\d/.test(line)) continue;
    spans.push({ start: ns, end: ns + line.replace(/\r$/, '').length, rule: sp.rule });
  }
}
