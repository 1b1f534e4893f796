// multipart/form-data as a request dump shows it: each part's headers name
// the field (`Content-Disposition: form-data; name="password"`), a blank line,
// then the field's value. A field named for a secret has one as its value.
import { isPlaceholder, isSensitiveName } from './names';
import type { Span } from './text';
import { work } from './work';

const PART = /Content-Disposition:[ \t]{0,4}form-data;[ \t]{0,4}name="([^"\r\n]{1,64})"[^\r\n]{0,200}\r?\n(?:[A-Za-z-]{1,40}:[^\r\n]{0,200}\r?\n){0,3}\r?\n([^\r\n]{1,1024})/gi;

export function findFormDataSecrets(text: string, spans: Span[]): void {
  if (!text.includes('form-data')) return;
  PART.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = PART.exec(text))) {
    work.reads += m[0].length;
    const value = m[2];
    if (!isSensitiveName(m[1]) || isPlaceholder(value) || value.startsWith('--')) continue;
    const start = m.index + m[0].length - value.length;
    spans.push({ start, end: start + value.length, rule: 'form-field' });
  }
}
