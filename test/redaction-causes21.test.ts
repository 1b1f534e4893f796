// Causes of misses of a blind corpus of secrets in tools' output (round 21): TOML and Python triple-quoted
// strings, a password named in a sentence without a verb (`with password X`), environment dumps whose values
// hold blanks, Redis AUTH arguments; and look-alikes it removed: flow mappings under a password name, the keys
// of a secret listed by jq. Each with our own strings, and the new readers stay linear.
import { describe, expect, it } from 'vitest';
import { redactText } from '../src/ledger/redact';
import { describeLinearReads } from './redaction/linear-reads';
import { LOOKALIKES21, SECRETS21 } from './fixtures/redaction-causes21';

describe('round 21 causes: secrets go', () => {
  for (const [cause, text, secrets] of SECRETS21) {
    it(cause, () => {
      const out = redactText(text);
      for (const s of secrets) expect(out, out).not.toContain(s);
    });
  }
});

describe('round 21 causes: look-alikes stay', () => {
  for (const [cause, text, keep] of LOOKALIKES21) {
    it(cause, () => {
      expect(redactText(text)).toContain(keep);
    });
  }
});

describeLinearReads('round 21 readers read linearly', ['password = """', "password = '''", 'with password ', 'using the token ', 'A_SECRET=a b ', "'AUTH', '", 'AUTH default ', "| jq 'keys'\n"]);
