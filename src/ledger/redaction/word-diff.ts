// git's word diff (`git diff --word-diff`, `--color-words` without colour):
// the changed words of a line in `[-old-]{+new+}` right after the name they
// are set under (`"secretKey": [-"x",-]{+"y",+}`). The added words are the
// value now set: judged under that name as an assignment is.
import { isSensitiveAssignment, isSensitiveName } from './names';
import type { Span } from './text';
import { work } from './work';

const WORD_DIFF = /(["']?)([A-Za-z_][\w.-]{0,63})\1[ \t]{0,3}[:=][ \t]{0,3}(?:\[-[^\n]{0,512}?-\][ \t]{0,3})?\{\+[ \t]{0,3}(["']?)([^"'\s+{}\[\]]{1,512})\3,?[ \t]{0,3}\+\}/g;

export function findWordDiffSecrets(text: string, spans: Span[]): void {
  if (!text.includes('{+')) return;
  WORD_DIFF.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = WORD_DIFF.exec(text))) {
    work.reads += m[0].length;
    const [, , name, , value] = m;
    if (!isSensitiveName(name) || !isSensitiveAssignment(name, value)) continue;
    const start = m.index + m[0].lastIndexOf(value);
    spans.push({ start, end: start + value.length, rule: 'assignment' });
  }
}
