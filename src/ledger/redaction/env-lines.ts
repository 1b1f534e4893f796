// An environment dump (`env`, `printenv`, `docker inspect` Env, `set`): every
// line is NAME=value, and the value runs to the line's end, blanks included
// (`GPG_PASSPHRASE=maple river 42`). Read as such only when at least two lines
// of the text have that shape, so a command line (`DEBUG=1 npm start`) keeps
// its words.
import { isPlaceholder, isSensitiveName } from './names';
import type { Span } from './text';
import { work } from './work';

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const MIN_ENV_LINES = 2;
const MAX_FOUND = 256;

/** Whether a character can start an environment variable's name. */
function nameStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

export function findEnvDumpValues(text: string, spans: Span[]): void {
  const found: Span[] = [];
  let lines = 0;
  // Line by line, by indexOf: only a line that starts like a name and has `=` within 65 characters is looked at.
  for (let ls = 0; ls < text.length; ) {
    let le = text.indexOf('\n', ls);
    if (le === -1) le = text.length;
    if (nameStart(text.charCodeAt(ls))) {
      // Bounded to the line's first 65 characters: an unbounded indexOf ran to the next `=` of the text, and a
      // text of many lines without one was read once per line (quadratic).
      let eq = -1;
      for (let i = ls + 1, lim = Math.min(le, ls + 65); i < lim; i++) {
        if (text.charCodeAt(i) === 61) {
          eq = i;
          break;
        }
      }
      if (eq > ls) {
        const name = text.slice(ls, eq);
        work.reads += le - ls;
        if (NAME.test(name)) {
          lines++;
          let ve = le;
          while (ve > eq + 1 && (text.charCodeAt(ve - 1) === 13 || text.charCodeAt(ve - 1) === 32 || text.charCodeAt(ve - 1) === 9)) ve--;
          const value = text.slice(eq + 1, ve);
          // Only a value with a blank in it needs this reader: one word is the assignment reader's.
          if (found.length < MAX_FOUND && value.includes(' ') && value[0] !== '"' && value[0] !== "'" && isSensitiveName(name) && !isPlaceholder(value)) found.push({ start: eq + 1, end: ve, rule: 'env-dump' });
        }
      }
    }
    ls = le + 1;
  }
  if (lines >= MIN_ENV_LINES) spans.push(...found);
}
