// Causes of misses of a blind corpus of secrets in real tools' output (round 17): values inside a language's
// wrapper (Rust Some, Erlang binaries, PHP var_dump and print_r), a name alone on its line with the value on
// the next, names with list indexes and plurals, a quoted decimal, YAML's doubled quote, option clusters, parameter
// paths, settings rows, named JSON objects, Redis ACLs, block scalars, far-aligned values. Each with our own
// strings, and the new readers stay linear.
import { describe, expect, it } from 'vitest';
import { redactText } from '../src/ledger/redact';
import { describeLinearReads } from './redaction/linear-reads';
import { LOOKALIKES17, SECRETS17 } from './fixtures/redaction-causes17';

describe('round 17 causes: secrets go', () => {
  for (const [cause, text, secrets] of SECRETS17) {
    it(cause, () => {
      const out = redactText(text);
      for (const s of secrets) expect(out, out).not.toContain(s);
    });
  }
});

describe('round 17 causes: look-alikes stay', () => {
  for (const [cause, text, keep] of LOOKALIKES17) {
    it(cause, () => {
      expect(redactText(text)).toContain(keep);
    });
  }
});

describeLinearReads('round 17 readers read linearly', ['password: Some("', '[pass] => ', '["password"]=>\n  string(4) "', 'DB_PASSWORD\n', '<password>\n', 'API key:\n', "password: 'a''", 'x.passwords[0]=', 'password => <<"', 'curl -su ', '/a/b/API_TOKEN\t', "('db_pass','", '"x.password": {\n', 'user u on >', 'user u on x ', 'pw: |\n  ', 'TOKEN:                    ', 'secret "', 'sentinel auth-pass m ', 'stats auth u:', 'createUser u SHA "', '--name db_password --data ', 'ns:apiToken   ']);
