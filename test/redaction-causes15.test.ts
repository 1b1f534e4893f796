// Causes of misses found by probing the redactor with fresh secrets of the families: tokens
// printed after a CLI's notices, Telegram Bot API URLs, gh secret set values. Each with our own strings:
// a secret of the family goes, a look-alike of it stays; and the notice skipping stays linear.
import { describe, expect, it } from 'vitest';
import { redactText } from '../src/ledger/redact';
import { describeLinearReads } from './redaction/linear-reads';
import { LOOKALIKES15, SECRETS15 } from './fixtures/redaction-causes15';

describe('round 15 causes: secrets go', () => {
  for (const [cause, text, secrets] of SECRETS15) {
    it(cause, () => {
      const out = redactText(text);
      for (const s of secrets) expect(out, out).not.toContain(s);
    });
  }
});

describe('round 15 causes: look-alikes stay', () => {
  for (const [cause, text, keep] of LOOKALIKES15) {
    it(cause, () => {
      expect(redactText(text)).toContain(keep);
    });
  }
});

describeLinearReads('round 15 detectors read linearly', ['NAME  TOKEN  AGE\nx  ', 'config/a.yml:12:password: x\n', 'process.env.API_KEY ?? "', '${DB_PASSWORD-', 'set -x API_TOKEN ', 'key: 9c2e7a41d0b35f86e1c4a7b2d9f03e58\n', '$ heroku auth:token\nWarning: x\n', 'https://api.telegram.org/bot123456789:', 'gh secret set X --body ']);
