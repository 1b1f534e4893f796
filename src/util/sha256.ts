// SHA-256 and HMAC-SHA-256 (FIPS 180-4, RFC 2104) in plain JavaScript, for
// the hook hot path: loading node:crypto costs about 5 ms per process, more
// than hashing a record takes. Verify and bulk work use node:crypto; tests
// check both give the same digests.

function firstPrimes(n: number): number[] {
  const out: number[] = [];
  for (let c = 2; out.length < n; c++) if (out.every((p) => c % p !== 0)) out.push(c);
  return out;
}

/** The first 32 bits of the fractional part of f(p), as the standard defines its constants. */
function fractionBits(values: number[], f: (x: number) => number): Int32Array {
  return Int32Array.from(values.map((p) => {
    const x = f(p);
    return Math.floor((x - Math.floor(x)) * 0x100000000) | 0;
  }));
}

const PRIMES = firstPrimes(64);
const K = fractionBits(PRIMES, Math.cbrt);
const H0 = fractionBits(PRIMES.slice(0, 8), Math.sqrt);
const W = new Int32Array(64);

function toBytes(msg: string | Uint8Array): Uint8Array {
  return typeof msg === 'string' ? Buffer.from(msg, 'utf8') : msg;
}

function digest(parts: Uint8Array[]): Uint8Array {
  let len = 0;
  for (const p of parts) len += p.length;
  const total = ((len + 9 + 63) >> 6) << 6;
  const m = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    m.set(p, at);
    at += p.length;
  }
  m[len] = 0x80;
  const hi = Math.floor(len / 0x20000000);
  const lo = (len * 8) >>> 0;
  m[total - 8] = hi >>> 24;
  m[total - 7] = hi >>> 16;
  m[total - 6] = hi >>> 8;
  m[total - 5] = hi;
  m[total - 4] = lo >>> 24;
  m[total - 3] = lo >>> 16;
  m[total - 2] = lo >>> 8;
  m[total - 1] = lo;
  const H = Int32Array.from(H0);
  for (let off = 0; off < total; off += 64) {
    for (let i = 0; i < 16; i++) {
      const j = off + i * 4;
      W[i] = (m[j] << 24) | (m[j + 1] << 16) | (m[j + 2] << 8) | m[j + 3];
    }
    for (let i = 16; i < 64; i++) {
      const x = W[i - 15];
      const y = W[i - 2];
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      W[i] = (W[i - 16] + s0 + W[i - 7] + s1) | 0;
    }
    let a = H[0], b = H[1], c = H[2], d = H[3], e = H[4], f = H[5], g = H[6], h = H[7];
    for (let i = 0; i < 64; i++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const t1 = (h + S1 + ch + K[i] + W[i]) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    H[0] = (H[0] + a) | 0;
    H[1] = (H[1] + b) | 0;
    H[2] = (H[2] + c) | 0;
    H[3] = (H[3] + d) | 0;
    H[4] = (H[4] + e) | 0;
    H[5] = (H[5] + f) | 0;
    H[6] = (H[6] + g) | 0;
    H[7] = (H[7] + h) | 0;
  }
  const out = new Uint8Array(32);
  for (let i = 0; i < 8; i++) {
    out[i * 4] = H[i] >>> 24;
    out[i * 4 + 1] = H[i] >>> 16;
    out[i * 4 + 2] = H[i] >>> 8;
    out[i * 4 + 3] = H[i];
  }
  return out;
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/** The digest's 32 bytes. */
export function sha256Bytes(msg: Uint8Array): Uint8Array {
  return digest([msg]);
}

export function sha256Hex(msg: string | Uint8Array): string {
  return hex(digest([toBytes(msg)]));
}

export function hmacSha256Hex(key: Uint8Array, msg: string | Uint8Array): string {
  let k = key.length > 64 ? digest([key]) : key;
  const block = new Uint8Array(64);
  block.set(k);
  const inner = new Uint8Array(64);
  const outer = new Uint8Array(64);
  for (let i = 0; i < 64; i++) {
    inner[i] = block[i] ^ 0x36;
    outer[i] = block[i] ^ 0x5c;
  }
  k = digest([inner, toBytes(msg)]);
  return hex(digest([outer, k]));
}
