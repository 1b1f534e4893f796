// Causes of misses of a blind corpus of secrets in real tools' output (round 16): a name and its value in
// sibling fields of a plan's diff, dot leaders, dump INSERTs whose columns only CREATE TABLE names; and
// look-alikes removed: published keys, a Secret's certificates and namespace. Each with our own strings,
// and the new readers stay linear.
import { describe, expect, it } from 'vitest';
import { redactText } from '../src/ledger/redact';
import { describeLinearReads } from './redaction/linear-reads';
import { LOOKALIKES16, SECRETS16, STILL_SECRET16 } from './fixtures/redaction-causes16';

describe('round 16 causes: secrets go', () => {
  for (const [cause, text, secrets] of SECRETS16) {
    it(cause, () => {
      const out = redactText(text);
      for (const s of secrets) expect(out, out).not.toContain(s);
    });
  }
  for (const [cause, text, secret] of STILL_SECRET16) {
    it(cause, () => {
      expect(redactText(text)).not.toContain(secret);
    });
  }
});

describe('round 16 causes: look-alikes stay', () => {
  for (const [cause, text, keep] of LOOKALIKES16) {
    it(cause, () => {
      expect(redactText(text)).toContain(keep);
    });
  }
});

describeLinearReads('round 16 readers read linearly', ['  key .... ', '  app ......\n', 'CREATE TABLE t (password text);\n', "INSERT INTO t VALUES ('a'),", '+ name = "db_password"\n+ value = "', 'CREATE TABLE t (a int, b int, c int, ']);
