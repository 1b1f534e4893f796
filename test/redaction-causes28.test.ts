// Causes of misses of the thirteenth blind corpus (tool output and files): URL passwords read as ports, Oracle
// users with dashes, environment blocks with visible NULs, keys named by their service, npmAuthIdent, template
// defaults, encoded echoes and CI Run lines, output glued to a prompt, prose naming a purpose, $'...' into a
// secret store; and the look-alikes that must stay. Each with our own strings; the new readers stay linear.
import { describe, expect, it } from 'vitest';
import { redactText } from '../src/ledger/redact';
import { describeLinearReads } from './redaction/linear-reads';
import { LOOKALIKES28, SECRETS28 } from './fixtures/redaction-causes28';

describe('round 28 causes: secrets go', () => {
  for (const [cause, text, secrets] of SECRETS28) {
    it(cause, () => {
      const out = redactText(text);
      for (const s of secrets) expect(out, out).not.toContain(s);
    });
  }
});

describe('round 28 causes: look-alikes stay', () => {
  for (const [cause, text, keep] of LOOKALIKES28) {
    it(cause, () => {
      expect(redactText(text)).toContain(keep);
    });
  }
});

describeLinearReads('round 28 readers read linearly', ['auth=("a", "', '<setting name="Password" a="b">\n<value>', 'param a_password string = ', 'SecretValue.unsafePlainText("', 'log in as a / ', 'Passwort für a lautet ', '$ echo "$API_TOKEN" | base64\n', 'Z ##[group]Run echo "$TOKEN"\n', '2026-01-02T03:04:05Z Run gh auth token\n', 'a\\0B_TOKEN=', 'a^@B_TOKEN=', 'password: ${X:', 'PAT for a b: ', "printf '%s' $'a", 'x.yml.enc\nA--']);
