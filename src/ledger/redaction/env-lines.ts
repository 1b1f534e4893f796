// An environment dump (`env`, `printenv`, `docker inspect` Env, `set`): every
// line is NAME=value, and the value runs to the line's end, blanks included
// (`GPG_PASSPHRASE=maple river 42`). Read as such only when at least two lines
// of the text have that shape, so a command line (`DEBUG=1 npm start`) keeps
// its words.
import { isPlaceholder, isSensitiveName } from './names';
import type { Span } from './text';
import { work } from './work';

const ENV_LINE = /^([A-Za-z_][A-Za-z0-9_]{0,63})=([^\r\n]*)$/gm;
const MIN_ENV_LINES = 2;

export function findEnvDumpValues(text: string, spans: Span[]): void {
  if (!text.includes('=')) return;
  ENV_LINE.lastIndex = 0;
  const found: { start: number; value: string; name: string }[] = [];
  let lines = 0;
  let m: RegExpExecArray | null;
  while ((m = ENV_LINE.exec(text))) {
    work.reads += m[0].length;
    lines++;
    const value = m[2].trimEnd();
    // Only a value with a blank in it needs this reader: one word is the assignment reader's.
    if (!value.includes(' ') || value.startsWith('"') || value.startsWith("'")) continue;
    if (found.length < 256 && isSensitiveName(m[1]) && !isPlaceholder(value)) found.push({ start: m.index + m[1].length + 1, value, name: m[1] });
  }
  if (lines < MIN_ENV_LINES) return;
  for (const f of found) spans.push({ start: f.start, end: f.start + f.value.length, rule: 'env-dump' });
}
