// Causes of misses found by a tenth blind corpus (part a): archivers' glued
// passwords, curl's cookies, credential constructors and their token shapes,
// vendor prefixes, armored keys, proxy userlists and `=>` pairs, name
// qualifiers, converted literals, positional passwords across lines, C
// constants, web-server directives, provisioning files. Each with our own
// strings: a secret of the family goes, a look-alike of it stays; and each
// new detector's fragment, a megabyte of it, costs linear work.
import { describe, expect, it } from 'vitest';
import { redactText } from '../src/ledger/redact';
import { work } from '../src/ledger/redaction/work';
import { LOOKALIKES10A, SECRETS10A } from './fixtures/redaction-causes10a';

describe('round 10a causes: secrets go', () => {
  for (const [cause, text, secrets] of SECRETS10A) {
    it(cause, () => {
      const out = redactText(text);
      for (const s of secrets) expect(out, out).not.toContain(s);
    });
  }
});

describe('round 10a causes: look-alikes stay', () => {
  for (const [cause, text, keep] of LOOKALIKES10A) {
    it(cause, () => {
      const out = redactText(text);
      expect(out, out).toContain(keep);
    });
  }
});

const MB = 1 << 20;
const FRAGMENTS: [string, string][] = [
  ['rar -hp', 'rar a -hpx '],
  ['curl -b', "curl -b 'connect.sid=s%3Aabc; x=y' "],
  ['AKID', 'AKIDa1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6 '],
  ['credential call over lines', 'NewCredential(\n  "a",\n'],
  ['shippo_', 'shippo_live_0a1b2c3d '],
  ['OpenVPN armor', '-----BEGIN OpenVPN Static key V1-----\n'],
  ['SSH2 armor', '---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\n'],
  ['insecure-password', 'user a insecure-password '],
  ['=>', 'password => '],
  ['rootpw', 'rootpw --plaintext '],
  ['chpasswd', 'chpasswd: { list: "'],
  ['[]byte(', 'secret = []byte("'],
  [': &str =', 'let token: &str = "'],
  ['#define', '#define API_KEY "'],
  ['char array', 'char pass[] = "'],
  ['set $', 'set $api_key '],
  ['proxy_set_header', 'proxy_set_header X-Api-Key '],
  ['buildConfigField', 'buildConfigField("String", "API_KEY", "'],
];

describe('round 10a detectors do linear work', () => {
  for (const [name, fragment] of FRAGMENTS) {
    for (const sep of ['', '\n']) {
      it(`1 MB of ${JSON.stringify(fragment + sep)} (${name})`, () => {
        const unit = fragment + sep;
        const reads = (bytes: number) => {
          const text = unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
          work.reads = 0;
          redactText(text);
          return work.reads;
        };
        const small = reads(MB / 8);
        const big = reads(MB);
        expect(big / small, `${small} reads at 128 KB, ${big} at 1 MB`).toBeLessThanOrEqual(12);
        expect(big / MB).toBeLessThanOrEqual(64);
      }, 60_000);
    }
  }
});
