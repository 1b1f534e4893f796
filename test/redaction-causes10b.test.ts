// Causes of misses found by a tenth blind red-team corpus (templates, Maven, secret store tables,
// protocol logs, debuggers, diffs, reports, HTML, URLs with spaces, 2FA codes, -creds options,
// decoded literals, split tokens), each with our own strings: a secret of the family goes, a
// look-alike of it stays. Then each new detector on a megabyte of its own key fragment.
import { describe, expect, it } from 'vitest';
import { redactText } from '../src/ledger/redact';
import { work } from '../src/ledger/redaction/work';
import { LOOKALIKES10B, SECRETS10B } from './fixtures/redaction-causes10b';

describe('round 10b causes: secrets go', () => {
  for (const [cause, text, secrets] of SECRETS10B) {
    it(cause, () => {
      const out = redactText(text);
      for (const s of secrets) expect(out, out).not.toContain(s);
    });
  }
});

describe('round 10b causes: look-alikes stay', () => {
  for (const [cause, text, keep] of LOOKALIKES10B) {
    it(cause, () => {
      const out = redactText(text);
      expect(out, out).toContain(keep);
    });
  }
});

/** Fragments each new detector keys on, repeated: a detector that looks back or ahead at every repeat is quadratic. */
const FRAGMENTS: [string, string][] = [
  ['jinja defaults', "password: {{ x | default('"],
  ['maven braces', '<master>{<password>{'],
  ['key/value tables', 'Key   Value\n---   -----\n'],
  ['redis monitor', '"AUTH" "CONFIG" "SET" "requirepass" '],
  ['debugger prompts', '(gdb) p password\n$1 = 0x1 "'],
  ['iex prompts', 'iex(1)> secret\n'],
  ['diff lines', '+password x\n-token: y\n> secret z\n'],
  ['property reports', 'Property: a.password\nValue: "'],
  ['html cells', '<td class="e">PASSWORD </td><td>'],
  ['html meta', '<meta name="api-key" content="'],
  ['html comments', '<!-- password: '],
  ['url with spaces', 'db://u:a b c d@h.x e f '], ['url with spaces, no host', 'db://u:a b c d e f g h i j k l m n '],
  ['backup codes', 'backup codes: 1a2b-3c4d '],
  ['recovery lines', 'Recovery codes:\n'],
  ['creds options', '--dest-creds a:'],
  ['decoder pipes', "echo 'QUJD' | base64 -d | "],
  ['split literals', 'const a = "ghp_"; const b = "'],
];

describe('round 10b detectors do linear work', () => {
  const reads = (t: string) => {
    work.reads = 0;
    redactText(t);
    return work.reads;
  };
  for (const [name, frag] of FRAGMENTS) {
    it(`${name}: 8x the input costs about 8x the reads`, () => {
      const small = frag.repeat(Math.ceil(128 * 1024 / frag.length));
      const big = frag.repeat(Math.ceil(1024 * 1024 / frag.length));
      const a = reads(small);
      const b = reads(big);
      expect(b / a, `${a} reads at 128 KiB, ${b} at 1 MiB`).toBeLessThanOrEqual(12);
      expect(b / big.length).toBeLessThanOrEqual(64);
    });
  }
});
