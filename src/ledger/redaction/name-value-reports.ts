// A name and its value on two lines of a report: Spring Boot's failure analysis
// (`Property: app.mail.password` / `Value: "x"` / `Origin: …`), describe and list outputs
// (`Name:   API_TOKEN` / `Value:  x`, PowerShell's `Property : x` / `Value    : y`), with any
// blanks around the colons (the name/value pair rule allows three).
import { isPlaceholder, isSensitiveAssignment } from './names';
import { scanLines } from './anchored';
import type { Span } from './text';
import { work } from './work';

const NAME_LINE = /^[ \t]{0,16}(?:Property|Name|Key|Variable|Setting|Parameter)[ \t]{0,16}:[ \t]{1,16}["']?([A-Za-z_][\w.:\[\]-]{0,127}?)["']?[ \t]*\r?$/g;
const NAME_ANCHOR = /(?:Property|Name|Key|Variable|Setting|Parameter)[ \t]{0,16}:/g;
const VALUE_LINE = /^[ \t]{0,16}Value[ \t]{0,16}:[ \t]{1,16}(?:"((?:[^"\\\n]|\\.){1,1024})"|'([^'\n]{1,1024})'|(\S[^\n]{0,1023}?))[ \t]*\r?$/;

export function findNameValueReports(text: string, spans: Span[]): void {
  if (!text.includes('Value')) return;
  scanLines(NAME_LINE, NAME_ANCHOR, text, (m) => {
    // The name is judged by its last part (app.mail.password, ConnectionStrings--Db).
    const name = m[1];
    const ls = m.index + m[0].length + 1;
    if (ls >= text.length) return;
    let le = text.indexOf('\n', ls);
    if (le === -1) le = text.length;
    if (le - ls > 1100) return;
    const line = text.slice(ls, le);
    work.reads += line.length;
    const v = VALUE_LINE.exec(line);
    if (!v) return;
    const value = v[1] ?? v[2] ?? v[3];
    if (isPlaceholder(value) || !isSensitiveAssignment(name, value)) return;
    const end = line.replace(/[ \t]*\r?$/, '').length - (v[3] === undefined ? 1 : 0);
    spans.push({ start: ls + end - value.length, end: ls + end, rule: 'name-value' });
  });
}
