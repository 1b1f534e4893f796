// Keypairs as JSON byte arrays: a Solana keypair file (`cat ~/.config/solana/id.json`,
// `solana-keygen new --outfile`), Keypair.fromSecretKey(Uint8Array.from([…])), a Rust or Python
// secret key literal. An array of exactly 64 integers 0-255 is a secret key wherever it stands;
// one of 32 (a seed, or a public key) only where the text before it names a secret, a private key,
// a seed or a keypair and not a public one. Arrays of few distinct values (zero-filled buffers) stay.
// One forward pass: each array is read once, from its `[` to where it stops being one.
import type { Span } from './text';
import { work } from './work';

const MIN_DISTINCT_64 = 16;
const MIN_DISTINCT_32 = 10;
const SECRET_CONTEXT = /secret|priv|seed|keypair|signer|wallet|id\.json|sk\b/i;
const PUBLIC_CONTEXT = /pub/i;

export function findKeypairArrays(text: string, spans: Span[]): void {
  const n = text.length;
  if (n < 64 || !text.includes(',')) return;
  work.reads += n;
  const seen = new Uint8Array(256);
  let i = text.indexOf('[');
  while (i !== -1) {
    const open = i;
    let j = i + 1;
    let count = 0;
    let ok = false;
    seen.fill(0);
    let distinct = 0;
    for (;;) {
      while (j < n && (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 10 || text.charCodeAt(j) === 13 || text.charCodeAt(j) === 9)) j++;
      const ds = j;
      let v = 0;
      while (j < n && j - ds < 4 && text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57) v = v * 10 + text.charCodeAt(j++) - 48;
      if (j === ds || j - ds > 3 || v > 255) break;
      if (seen[v] === 0) {
        seen[v] = 1;
        distinct++;
      }
      if (++count > 64) break;
      while (j < n && (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 10 || text.charCodeAt(j) === 13 || text.charCodeAt(j) === 9)) j++;
      const c = text.charCodeAt(j);
      if (c === 44) {
        j++;
        continue;
      }
      ok = c === 93;
      break;
    }
    if (ok && count === 64 && distinct >= MIN_DISTINCT_64) spans.push({ start: open + 1, end: j, rule: 'keypair-array' });
    else if (ok && count === 32 && distinct >= MIN_DISTINCT_32) {
      const before = text.slice(Math.max(0, open - 120), open);
      work.reads += before.length;
      if (SECRET_CONTEXT.test(before) && !PUBLIC_CONTEXT.test(before.slice(before.lastIndexOf('\n') + 1))) spans.push({ start: open + 1, end: j, rule: 'keypair-array' });
    }
    i = text.indexOf('[', Math.max(j, open + 1));
  }
}
