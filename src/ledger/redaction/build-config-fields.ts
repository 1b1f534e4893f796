// Android Gradle: buildConfigField("String", "MAPS_API_KEY", "\"value\"") and
// resValue("string", "api_token", "value"): the name is the second argument,
// the value the third, its Java quotes escaped inside the Gradle string.
import { isSensitiveAssignment, isSensitiveName } from './names';
import type { Span } from './text';
import { scan } from './work';

const FIELD = /\b(?:buildConfigField|resValue)[ \t]{0,3}\(?[ \t]{0,3}["'][\w.<>]{1,40}["'][ \t]{0,3},[ \t]{0,3}["']([A-Za-z_][\w.]{0,63})["'][ \t]{0,3},[ \t]{0,3}(?:"((?:\\.|[^"\\\n]){1,1024})"|'((?:\\.|[^'\\\n]){1,1024})')/g;

export function findBuildConfigFields(text: string, spans: Span[]): void {
  if (!text.includes('buildConfigField') && !text.includes('resValue')) return;
  FIELD.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = scan(FIELD, text))) {
    const raw = m[2] ?? m[3];
    let start = m.index + m[0].length - 1 - raw.length;
    let v = raw;
    // "\"value\"": the Java literal inside the Gradle one.
    if (v.length > 4 && v.startsWith('\\"') && v.endsWith('\\"')) {
      v = v.slice(2, -2);
      start += 2;
    }
    if (!isSensitiveName(m[1]) || !isSensitiveAssignment(m[1], v)) continue;
    spans.push({ start, end: start + v.length, rule: 'assignment' });
  }
}
