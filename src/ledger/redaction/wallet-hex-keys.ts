// Private keys as 64 hex digits: typed keys (Tailscale and WireGuard tooling print
// `privkey:<64 hex>`, `nlpriv:<64 hex>`; their `nodekey:`, `discokey:`, `pubkey:`, `mkey:`,
// `nlpub:` are public) and a key under a wallet name (PRIVATE_KEY=<64 hex>, privateKey:
// "0x<64 hex>", DEPLOYER_KEY, signer_key, ETH_PK). Transaction and block hashes are 64 hex digits
// too: only the name before a run decides. One forward pass over the runs of hex digits.
import type { Span } from './text';
import { work } from './work';

const HEX = new Uint8Array(65536);
for (const c of '0123456789abcdefABCDEF') HEX[c.charCodeAt(0)] = 1;
const WORD = new Uint8Array(65536);
for (let c = 48; c <= 57; c++) WORD[c] = 1;
for (let c = 65; c <= 90; c++) WORD[c] = WORD[c + 32] = 1;
WORD[95] = 1;

/** Typed private keys, read back from the run's start. */
const TYPED_PRIVATE = ['privkey:', 'nlpriv:'];
/** Names of a wallet's key: a word of the name, after splitting camelCase, snake_case and kebab-case. */
const WALLET_WORDS = /(?:^|_)(?:priv|private|privkey|privatekey|pk|sk|secret|signer|deployer|wallet|mnemonic|seed|owner_key|operator_key|account_key|eth_key|key_hex)(?:_|$)/;
const PUBLIC_WORDS = /(?:^|_)(?:pub|public|pubkey|hash|hashed|tx|txid|block|address|addr|id|root|digest|checksum|sha256|commit)(?:_|$)/;

/** The name before a value at `at`: blanks, quotes, `=`, `:` and `=>` skipped, then a name of word characters, dots and dashes. */
function nameBefore(text: string, at: number): string {
  let e = at;
  while (e > 0 && at - e < 8 && ' \t"\':=>'.includes(text[e - 1])) e--;
  if (e === at) return '';
  let b = e;
  // A `/` joins a name's path (`checksum/secret`): the path's words count, as a digest's name says it is one.
  while (b > 0 && e - b < 64 && (WORD[text.charCodeAt(b - 1)] === 1 || text[b - 1] === '-' || text[b - 1] === '.' || text[b - 1] === '/')) b--;
  return text.slice(b, e);
}

const words = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase().replace(/[^a-z0-9]+/g, '_');

export function findWalletHexKeys(text: string, spans: Span[]): void {
  const n = text.length;
  if (n < 64) return;
  work.reads += n;
  let i = 0;
  while (i < n) {
    if (HEX[text.charCodeAt(i)] !== 1) {
      i++;
      continue;
    }
    let from = i;
    while (i < n && HEX[text.charCodeAt(i)] === 1) i++;
    // 0x<64 hex>: the run read from the x on.
    if (i - from === 1 && text.charCodeAt(from) === 48 && (text.charCodeAt(i) | 32) === 120) {
      const hs = i + 1;
      let k = hs;
      while (k < n && HEX[text.charCodeAt(k)] === 1) k++;
      if (k - hs !== 64 || (k < n && WORD[text.charCodeAt(k)] === 1)) {
        i = Math.max(k, i + 1);
        continue;
      }
      from = hs;
      i = k;
    } else if (i - from !== 64 || (from > 0 && WORD[text.charCodeAt(from - 1)] === 1 && !text.endsWith(':', from)) || (i < n && WORD[text.charCodeAt(i)] === 1)) continue;
    const lead = from >= 2 && text.charCodeAt(from - 1) === 120 && text.charCodeAt(from - 2) === 48 ? from - 2 : from;
    work.reads += 72;
    if (TYPED_PRIVATE.some((t) => text.startsWith(t, lead - t.length) && (lead - t.length === 0 || WORD[text.charCodeAt(lead - t.length - 1)] !== 1))) {
      spans.push({ start: from, end: i, rule: 'typed-private-key' });
      continue;
    }
    const name = words(nameBefore(text, lead));
    if (name && WALLET_WORDS.test(name) && !PUBLIC_WORDS.test(name)) spans.push({ start: from, end: i, rule: 'wallet-private-key' });
  }
}
