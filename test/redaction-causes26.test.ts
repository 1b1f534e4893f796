// Causes of misses of the eleventh blind corpus of secrets in tools' output: commands whose output is the secret
// (a file named for it, inside a container, under a CLI's notices), mail and file-transfer sessions, passwords
// read from stdin, nmcli's settings, keys in brackets, INI sections of secrets, Oracle descriptors, key words in
// other languages, passwords a program made, expect's trace; and look-alikes it removed: test results, lockfile
// digests, OpenAI ids, sealed ciphertexts. Each with our own strings, and the new readers stay linear.
import { describe, expect, it } from 'vitest';
import { redactText } from '../src/ledger/redact';
import { describeLinearReads } from './redaction/linear-reads';
import { LOOKALIKES26, SECRETS26 } from './fixtures/redaction-causes26';

describe('round 26 causes: secrets go', () => {
  for (const [cause, text, secrets] of SECRETS26) {
    it(cause, () => {
      const out = redactText(text);
      for (const s of secrets) expect(out, out).not.toContain(s);
    });
  }
});

describe('round 26 causes: look-alikes stay', () => {
  for (const [cause, text, keep] of LOOKALIKES26) {
    it(cause, () => {
      expect(redactText(text)).toContain(keep);
    });
  }
});

describeLinearReads('round 26 readers read linearly', ['[admins]\na = ', 'env[PASSWORD] = ', 'C: AUTH PLAIN ', 'a1 LOGIN u ', '---> PASS ', 'password is generated for x: ', 'send: sending "', '334 UGFzc3dvcmQ6\n', 'PASS src/a.test.ts\n', '{"name": "DB_PASSWORD", "tags": {}, "value": "a', '{"value": "a", "name": "', '    ApiKey    REG_SZ    a', 'NAME | DIGEST\n', 'Name  Value\n----  -----\nDB_PASSWORD  a\n', '[REDACTED:x]=']);
