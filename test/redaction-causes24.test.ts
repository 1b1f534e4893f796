// Causes of misses of the tenth blind corpus of secrets in tools' output: the word for password with its
// diacritics, programs whose secret option has its own form (lftp, nuget, cloudflared, rclone's b2 key),
// network device configuration (Cisco IOS), IPsec secrets files, curl's config file, URL users holding an @,
// fish's set after a prompt, table values with blanks; and look-alikes it removed: shell defaults and masked
// displays. Each with our own strings, and the new readers stay linear.
import { describe, expect, it } from 'vitest';
import { redactText } from '../src/ledger/redact';
import { describeLinearReads } from './redaction/linear-reads';
import { LOOKALIKES24, SECRETS24 } from './fixtures/redaction-causes24';

describe('round 24 causes: secrets go', () => {
  for (const [cause, text, secrets] of SECRETS24) {
    it(cause, () => {
      const out = redactText(text);
      for (const s of secrets) expect(out, out).not.toContain(s);
    });
  }
});

describe('round 24 causes: look-alikes stay', () => {
  for (const [cause, text, keep] of LOOKALIKES24) {
    it(cause, () => {
      expect(redactText(text)).toContain(keep);
    });
  }
});

describeLinearReads('round 24 readers read linearly', ['lösenord = ', 'enable secret 0 ', ': PSK "a ', 'user = "a:', 'smtps://a@b:c d@', '~> set -gx PASSWORD ', '| PASSWORD | a b ', '${PASSWORD:-', 'x ****', "password:\nsend \"a"]);
