// Machine provisioning files: kickstart's `rootpw [--plaintext] X` (not
// `--iscrypted HASH`, not `--lock`), slapd.conf's `rootpw X` (a {SSHA}/{CRYPT}
// hash stays), and cloud-init's `chpasswd: { list: | root:X … }` in its block,
// quoted and list forms (a `$6$…` hash and RANDOM stay).
import { scanLines } from './anchored';
import { isPlaceholder } from './names';
import type { Span } from './text';
import { work } from './work';

const ROOTPW = /^[ \t]*rootpw[ \t]{1,8}([^\n]{1,1024})/gm;
const ROOTPW_ANCHOR = /rootpw/g;
const HASHED = /^(?:\{[A-Z0-9-]{2,16}\}|\$[0-9a-z]{1,8}\$)/i;
const ENTRY = /^[ \t]*-?[ \t]*["']?([\w.@-]{1,64}):([^\s"']{1,512})["']?[ \t]*,?[ \t]*$/;
const REGION = 4096;
const WORD = /\S{1,1024}/g;
const QUOTED_ENTRY = /[^\s"'\\]{1,600}(?:\\n)?/g;
const TRAILING_ESCAPE = /\\n$/;

function rootpw(text: string, spans: Span[]): void {
  scanLines(ROOTPW, ROOTPW_ANCHOR, text, (m) => {
    const args = m[1];
    const base = m.index + m[0].length - args.length;
    let crypted = false;
    let value: [number, string] | undefined;
    WORD.lastIndex = 0;
    let w: RegExpExecArray | null;
    while ((w = WORD.exec(args))) {
      if (w[0] === '--iscrypted' || w[0] === '--lock') crypted = true;
      else if (w[0].startsWith('#')) break;
      else if (!w[0].startsWith('--') && !value) value = [w.index, w[0]];
    }
    if (crypted || !value || HASHED.test(value[1]) || isPlaceholder(value[1])) return;
    spans.push({ start: base + value[0], end: base + value[0] + value[1].length, rule: 'rootpw' });
  });
}

function pushEntry(region: string, base: number, ls: number, le: number, spans: Span[]): void {
  const m = ENTRY.exec(region.slice(ls, le));
  if (!m) return;
  const v = m[2];
  if (HASHED.test(v) || v === 'RANDOM' || v === 'R' || isPlaceholder(v)) return;
  const at = base + ls + m[0].lastIndexOf(v);
  spans.push({ start: at, end: at + v.length, rule: 'chpasswd' });
}

/** The entries of chpasswd's `list:` (at `key` in the region, which starts at text index `base`). */
function listEntries(region: string, base: number, key: number, spans: Span[]): void {
  let keyLine = key;
  while (keyLine > 0 && region.charCodeAt(keyLine - 1) !== 10) keyLine--;
  let indent = 0;
  while (region.charCodeAt(keyLine + indent) === 32 || region.charCodeAt(keyLine + indent) === 45) indent++;
  let at = key + 5;
  while (region.charCodeAt(at) === 32 || region.charCodeAt(at) === 9) at++;
  const c = region.charCodeAt(at);
  const n = region.length;
  if (c === 34 || c === 39) {
    // A quoted list: entries split by real line ends, \n escapes or blanks.
    const close = region.indexOf(String.fromCharCode(c), at + 1);
    if (close === -1) return;
    QUOTED_ENTRY.lastIndex = 0;
    let e: RegExpExecArray | null;
    const inner = region.slice(at + 1, close);
    while ((e = QUOTED_ENTRY.exec(inner))) {
      const entry = e[0].replace(TRAILING_ESCAPE, '');
      const colon = entry.indexOf(':');
      if (colon <= 0) continue;
      const v = entry.slice(colon + 1);
      if (!v || HASHED.test(v) || v === 'RANDOM' || v === 'R' || isPlaceholder(v)) continue;
      const s = base + at + 1 + e.index + colon + 1;
      spans.push({ start: s, end: s + v.length, rule: 'chpasswd' });
    }
    return;
  }
  // A block (`list: |`) or a YAML list on the lines below, indented more than `list:`.
  let ls = region.indexOf('\n', at);
  while (ls !== -1 && ls + 1 < n) {
    ls++;
    let le = region.indexOf('\n', ls);
    if (le === -1) le = n;
    let d = 0;
    while (region.charCodeAt(ls + d) === 32) d++;
    if (ls + d < le && d <= indent && region.charCodeAt(ls + d) !== 45) break;
    pushEntry(region, base, ls, le, spans);
    ls = le < n ? le : -1;
  }
}

function chpasswd(text: string, spans: Span[]): void {
  let i = text.indexOf('chpasswd');
  let key = -1;
  while (i !== -1) {
    const next = text.indexOf('chpasswd', i + 8);
    const bound = Math.min(next === -1 ? text.length : next, i + REGION);
    // The next `list:`, looked up again only once passed (no search from every chpasswd to the end of the text).
    if (key !== -2 && key < i + 8) key = text.indexOf('list:', i + 8);
    if (key === -1) key = -2;
    if (key >= 0 && key < bound) {
      const region = text.slice(i, bound);
      work.reads += region.length;
      listEntries(region, i, key - i, spans);
    }
    i = next;
  }
}

export function findProvisioningSecrets(text: string, spans: Span[]): void {
  if (text.includes('rootpw')) rootpw(text, spans);
  if (text.includes('chpasswd')) chpasswd(text, spans);
}
