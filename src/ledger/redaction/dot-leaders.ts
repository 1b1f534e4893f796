// Reports that join a name to its value with a dot leader: `php artisan
// config:show` and `about`, and other CLIs that print `name ...... value`.
// A line with a leader and no value heads a section (`app ......`): its rows'
// names are judged with it too (app.key is Laravel's encryption key, where a
// bare `key` says nothing).
import { isPlaceholder, isSensitiveAssignment } from './names';
import { scanLines } from './anchored';
import type { Span } from './text';

const LEADER_LINE = /^[ \t]{0,16}([A-Za-z_][\w.:-]{0,79}(?:[ \t]\u21c1[ \t][A-Za-z_][\w.:-]{0,79}){0,4})[ \t]{1,4}\.{3,}(?:[ \t]{1,4}(\S(?:[^\n]{0,1022}\S)?))?[ \t]*\r?$/g;
const LEADER = /[ \t]\.{3,}/g;

export function findDotLeaders(text: string, spans: Span[]): void {
  if (!text.includes('...')) return;
  let section = '';
  scanLines(LEADER_LINE, LEADER, text, (m) => {
    // Laravel writes nested keys as `maintenance ⇁ driver`.
    const name = m[1].replace(/[ \t]\u21c1[ \t]/g, '.');
    const value = m[2];
    if (value === undefined) {
      section = name;
      return;
    }
    if (isPlaceholder(value)) return;
    if (!isSensitiveAssignment(name, value) && !(section && isSensitiveAssignment(`${section}.${name}`, value))) return;
    const start = m.index + m[0].lastIndexOf(value);
    spans.push({ start, end: start + value.length, rule: 'dot-leader' });
  });
}
