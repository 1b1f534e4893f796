// One case per cause of a miss or a false removal found by red-team corpora:
// each secret below must go, each look-alike must stay. The strings are made
// up here (not taken from any corpus); a cause is fixed in the detector
// tables, so a different string of the same shape behaves the same.
import { describe, expect, it } from 'vitest';
import { redactText } from '../src/ledger/redact';
import { LOOKALIKES, SECRETS } from './fixtures/redaction-causes';

describe('redaction causes: secrets go', () => {
  for (const [cause, text, secret] of SECRETS) {
    it(`${cause}`, () => {
      const out = redactText(text);
      expect(out, out).not.toContain(secret);
      expect(out).toContain('[REDACTED');
    });
  }
});

describe('redaction causes: look-alikes stay', () => {
  for (const [cause, text, keep] of LOOKALIKES) {
    it(`${cause}`, () => {
      const out = redactText(text);
      expect(out, out).toContain(keep);
    });
  }
});
