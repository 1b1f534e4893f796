// INI sections whose every value is a secret, whatever its key says:
// CouchDB's `[admins]` (admin = password), and sections named for what they
// hold (`[passwords]`, `[secrets]`, `[credentials]`, `[api_keys]`).
import { isNotSecretName, isPlaceholder, isSensitiveName } from './names';
import type { Span } from './text';
import { scan, work } from './work';

/** Section names whose values are passwords though the name does not say so. */
const SECRET_SECTIONS = new Set(['admins', 'passwords', 'secrets', 'credentials', 'tokens', 'api_keys', 'apikeys']);
/** Keys that name the account or the place, not the secret (`user = bob` in `[credentials]`). */
const ACCOUNT_KEY = /^(?:user(?:name)?|login|email|account|host(?:name)?|port|url|uri|endpoint|region|type|name|path|file|comment|description)$/i;
const SECTION = /^[ \t]{0,8}\[([A-Za-z_][\w .-]{0,63})\][ \t]*\r?$/gm;
const PAIR = /^[ \t]{0,8}([^\s=#;[][^=\n]{0,127}?)[ \t]{0,8}=[ \t]{0,8}(\S(?:[^\n]{0,510}\S)?)[ \t]*\r?$/;

export function findIniSectionSecrets(text: string, spans: Span[]): void {
  if (!text.includes(']\n') && !text.includes(']\r\n')) return;
  SECTION.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = scan(SECTION, text))) {
    const name = m[1].trim().toLowerCase();
    if (!SECRET_SECTIONS.has(name) && !isSensitiveName(name)) continue;
    // Its lines, up to the next section, a blank line or a prompt.
    let ls = m.index + m[0].length + 1;
    while (ls < text.length) {
      let le = text.indexOf('\n', ls);
      if (le === -1) le = text.length;
      if (le - ls > 640) break;
      const line = text.slice(ls, le);
      work.reads += line.length + 1;
      if (!line.trim() || /^[ \t]{0,8}(?:\[|[$#>%][ \t])/.test(line)) break;
      const p = line.includes('=') ? PAIR.exec(line) : null;
      if (p && !ACCOUNT_KEY.test(p[1].trim()) && !isNotSecretName(p[1].trim()) && !isPlaceholder(p[2]) && p[2].length >= 4) {
        const at = ls + line.lastIndexOf(p[2]);
        spans.push({ start: at, end: at + p[2].length, rule: 'ini-section' });
      }
      ls = le + 1;
    }
    SECTION.lastIndex = Math.max(SECTION.lastIndex, ls);
  }
}
