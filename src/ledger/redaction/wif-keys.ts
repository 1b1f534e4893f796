// Bitcoin private keys in Wallet Import Format (what `bitcoin-cli dumpprivkey` prints, what
// `importprivkey` and a dumpwallet file hold): base58, 51 characters from 5 (mainnet,
// uncompressed) or 9 (testnet), 52 from K or L (mainnet, compressed) or c (testnet). A key whose
// base58check checksum holds is one wherever it stands; one whose checksum fails (a key typed by
// hand, cut, or invented) only where its line or the line before names a key or a wallet.
// One forward pass over the runs of letters and digits.
// The JavaScript SHA-256 (cross-checked against node:crypto by its tests): loading node:crypto costs the hook path milliseconds.
import { sha256Bytes } from '../../util/sha256';
import type { Span } from './text';
import { work } from './work';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** Each character's base58 digit plus one (0: not base58). */
const DIGIT58 = new Uint8Array(128);
for (let k = 0; k < ALPHABET.length; k++) DIGIT58[ALPHABET.charCodeAt(k)] = k + 1;

const ALNUM = new Uint8Array(65536);
for (let c = 48; c <= 57; c++) ALNUM[c] = 1;
for (let c = 65; c <= 90; c++) ALNUM[c] = ALNUM[c + 32] = 1;

/** The bytes of a base58 string (leading 1s as zero bytes). */
function base58Decode(s: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    let carry = DIGIT58[s.charCodeAt(i)] - 1;
    for (let k = 0; k < out.length; k++) {
      carry += out[k] * 58;
      out[k] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      out.push(carry & 0xff);
      carry >>= 8;
    }
  }
  for (let i = 0; i < s.length && s[i] === '1'; i++) out.push(0);
  return Uint8Array.from(out.reverse());
}

const sha256 = sha256Bytes;

/** A WIF key: version byte 0x80 or 0xef, 32 key bytes, 0x01 when compressed, and the double-SHA-256 checksum. */
export function isWifChecksum(s: string): boolean {
  const b = base58Decode(s);
  if (b.length !== 37 && b.length !== 38) return false;
  if (b[0] !== 0x80 && b[0] !== 0xef) return false;
  if (b.length === 38 && b[33] !== 0x01) return false;
  const payload = b.subarray(0, b.length - 4);
  const sum = sha256(sha256(payload));
  for (let k = 0; k < 4; k++) if (sum[k] !== b[b.length - 4 + k]) return false;
  return true;
}

/** Length and first characters of the four WIF forms. */
function wifShape(text: string, from: number, to: number): boolean {
  const n = to - from;
  const c0 = text[from];
  if (n === 51) return (c0 === '5' && 'HJK'.includes(text[from + 1])) || c0 === '9';
  if (n === 52) return c0 === 'K' || c0 === 'L' || c0 === 'c';
  return false;
}

const CONTEXT = /priv|wif|secret|wallet|\bkey\b|addr=|seed/i;

export function findWifKeys(text: string, spans: Span[]): void {
  const n = text.length;
  if (n < 51) return;
  work.reads += n;
  let i = 0;
  while (i < n) {
    if (ALNUM[text.charCodeAt(i)] !== 1) {
      i++;
      continue;
    }
    const from = i;
    let base58 = true;
    while (i < n && ALNUM[text.charCodeAt(i)] === 1) {
      if (base58 && DIGIT58[text.charCodeAt(i)] === 0) base58 = false;
      i++;
    }
    if (!base58 || !wifShape(text, from, i)) continue;
    const key = text.slice(from, i);
    if (!/[a-z]/.test(key) || !/[A-Z]/.test(key.slice(1)) || !/[0-9]/.test(key.slice(1))) continue;
    if (!isWifChecksum(key)) {
      // The line and the one before it (a prompt with dumpprivkey, a `WIF:` label).
      let ls = from;
      for (let lines = 0; ls > 0 && from - ls < 300; ls--) if (text.charCodeAt(ls - 1) === 10 && ++lines === 2) break;
      const lineBefore = text.slice(ls, from);
      let le = i;
      while (le < n && le - i < 200 && text.charCodeAt(le) !== 10) le++;
      work.reads += from - ls + (le - i);
      if (!CONTEXT.test(lineBefore) && !CONTEXT.test(text.slice(i, le))) continue;
    }
    spans.push({ start: from, end: i, rule: 'wif-private-key' });
  }
}
