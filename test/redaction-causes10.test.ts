// Round 10's look-alikes, by cause (test/fixtures/redaction-causes10.ts): each stays.
import { describe, expect, it } from 'vitest';
import { redactText } from '../src/ledger/redact';
import { LOOKALIKES10 } from './fixtures/redaction-causes10';

describe('round 10 causes: look-alikes stay', () => {
  for (const [cause, text, keep] of LOOKALIKES10) {
    it(cause, () => {
      const out = redactText(text);
      expect(out, out).toContain(keep);
    });
  }
});
