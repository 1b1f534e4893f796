// A secret listed under its path: AWS SSM's `get-parameters-by-path
// --output text` (`/prod/billing/DB_PASSWORD<TAB>value`), Vault and etcd
// listings (`secret/app/api_token  value`): the path's last segment names
// the value that follows it on the line, alone.
import { scanLines } from './anchored';
import { isSensitiveAssignment, isSensitiveName } from './names';
import type { Span } from './text';

const PATH_ROW = /^[ \t]{0,8}\/?(?:[\w.-]{1,64}\/){1,12}([A-Za-z_][\w.-]{0,63})(?:\t|[ \t]{2,40})("?)(\S{6,512}?)\2[ \t]*\r?$/gm;
// The blank after a path segment that may name a secret: every match holds one.
const ANCHOR = /\/[A-Za-z_][\w.-]{0,63}(?:\t|[ \t]{2})/g;
const DIGIT_OR_SYMBOL = /[^A-Za-z]/;

export function findParameterPaths(text: string, spans: Span[]): void {
  if (!text.includes('/')) return;
  scanLines(PATH_ROW, ANCHOR, text, (m) => {
    const name = m[1];
    const v = m[3];
    if (!DIGIT_OR_SYMBOL.test(v) || !isSensitiveName(name) || !isSensitiveAssignment(name, v)) return;
    const start = m.index + m[0].lastIndexOf(v);
    spans.push({ start, end: start + v.length, rule: 'assignment' });
  });
}
