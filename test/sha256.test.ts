// The hook path hashes with a JavaScript SHA-256 (loading node:crypto costs a
// hook process more than the hashing: `npm run bench -- crypto`). It must give
// node:crypto's digests exactly: random inputs around every block boundary,
// strings with multi-byte characters, bytes, and HMAC keys shorter and longer
// than a block.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hmacSha256Hex, sha256Hex } from '../src/util/sha256';

let seed = 0x5eed;
const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) >>> 0), seed % n);
const CHARS = ['a', 'Z', '0', ' ', '"', '\\', '\n', 'é', 'ß', '€', '中', '😀', '\u0000', '\u2028'];
const randomText = (len: number) => Array.from({ length: len }, () => CHARS[rnd(CHARS.length)]).join('');
const LENGTHS = [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000, 4096, 100_003];

describe('JavaScript SHA-256 and HMAC-SHA-256 against node:crypto', () => {
  it('SHA-256: bytes and strings of every block-boundary length and random lengths', () => {
    for (const len of [...LENGTHS, ...Array.from({ length: 300 }, () => rnd(3000))]) {
      const bytes = randomBytes(len);
      expect(sha256Hex(bytes), `bytes of length ${len}`).toBe(createHash('sha256').update(bytes).digest('hex'));
      const text = randomText(len % 2000);
      expect(sha256Hex(text), JSON.stringify(text)).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
    }
  });

  it('HMAC-SHA-256: keys shorter than, equal to and longer than a block', () => {
    for (let i = 0; i < 300; i++) {
      const key = randomBytes([16, 32, 63, 64, 65, 200][i % 6] + (i % 3));
      const msg = i % 2 ? randomBytes(rnd(2000)) : randomText(rnd(1500));
      expect(hmacSha256Hex(key, msg)).toBe(createHmac('sha256', key).update(msg).digest('hex'));
    }
  });
});
