// `op item get … --format json` (and `op item list/get` JSON, 1Password exports): each field is an
// object with an id, a label, a purpose, a type and a value. The value is a secret when the type
// is CONCEALED (passwords, API keys, credentials), the purpose is PASSWORD, or the id or label names
// a secret. One forward pass over the JSON: strings are read once, each object's members judged
// when it closes.
import { isPlaceholder, isSensitiveName } from './names';
import type { Span } from './text';
import { work } from './work';

interface Frame {
  secret: boolean;
  valueStart: number;
  valueEnd: number;
}

const MAX_DEPTH = 64;
const MAX_STRING = 8192;

/** Index of the quote closing the string opened at `open`, or -1 - (where the search stopped): no string starts before there. */
function stringEnd(text: string, open: number): number {
  const stop = Math.min(text.length, open + MAX_STRING);
  let i = open + 1;
  for (; i < stop; i++) {
    const c = text.charCodeAt(i);
    if (c === 92) i++;
    else if (c === 34) return i;
    else if (c === 10) break;
  }
  return -1 - Math.min(i, stop);
}

export function findOnePasswordFields(text: string, spans: Span[]): void {
  if (!text.includes('"CONCEALED"') && !text.includes('"purpose"') && !text.includes('"fields"')) return;
  const n = text.length;
  work.reads += n;
  const stack: Frame[] = [];
  let key = '';
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 123) {
      if (stack.length < MAX_DEPTH) stack.push({ secret: false, valueStart: -1, valueEnd: -1 });
      key = '';
      i++;
    } else if (c === 125) {
      const f = stack.pop();
      if (f && f.secret && f.valueStart !== -1) {
        const v = text.slice(f.valueStart, f.valueEnd);
        if (v && !isPlaceholder(v)) spans.push({ start: f.valueStart, end: f.valueEnd, rule: 'onepassword-field' });
      }
      key = '';
      i++;
    } else if (c === 34) {
      const e = stringEnd(text, i);
      if (e < 0) {
        i = Math.max(i + 1, -1 - e);
        continue;
      }
      // A key (a colon follows) or a value (after a key).
      let j = e + 1;
      while (j < n && (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9)) j++;
      const f = stack[stack.length - 1];
      if (text.charCodeAt(j) === 58) {
        key = e - i - 1 <= 16 ? text.slice(i + 1, e) : '';
        i = j + 1;
        continue;
      }
      if (f && key) {
        const s = text.slice(i + 1, Math.min(e, i + 65));
        if (key === 'value') {
          f.valueStart = i + 1;
          f.valueEnd = e;
        } else if (key === 'type' && s === 'CONCEALED') f.secret = true;
        else if (key === 'purpose' && s === 'PASSWORD') f.secret = true;
        else if ((key === 'id' || key === 'label') && s.length <= 64 && isSensitiveName(s)) f.secret = true;
      }
      key = '';
      i = e + 1;
    } else i++;
  }
}
