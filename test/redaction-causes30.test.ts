// Causes of misses of the fifteenth blind corpus (tool output): client constructors with id and secret side by side,
// PHP constructors in stack traces, one-column box sections, wrapped prints, argv lists, block scalars and path
// names in name/value pairs, COPY blocks, word diffs, headers ending in Key, passphrases to the line end, netsh,
// Erlang cookies, truncated tokens; and the look-alikes that must stay. The new readers stay linear.
import { describe, expect, it } from 'vitest';
import { redactText } from '../src/ledger/redact';
import { describeLinearReads } from './redaction/linear-reads';
import { LOOKALIKES30, SECRETS30 } from './fixtures/redaction-causes30';

describe('round 30 causes: secrets go', () => {
  for (const [cause, text, secrets] of SECRETS30) {
    it(cause, () => {
      const out = redactText(text);
      for (const s of secrets) expect(out, out).not.toContain(s);
    });
  }
});

describe('round 30 causes: look-alikes stay', () => {
  for (const [cause, text, keep] of LOOKALIKES30) {
    it(cause, () => {
      expect(redactText(text)).toContain(keep);
    });
  }
});

describeLinearReads('round 30 readers read linearly', ['Client("a", ', '||  SecretAccessKey  ||\n||  ', '  "--db.password",\n', '  - --password\n', '  - name: X_PASSWORD\n    value: >-\n', 'COPY t (id, secret) FROM stdin;\n', '"secret": [-"a",-]{+', 'proxy_set_header X-A-Key ', 'a.password=x ', 'X_PASSWORD is: ', 'ghp_Abcdefgh1', 'PDO->__construct(\'a\', ', 'A  FIELD  VALUE\n', 'NS  NAME  PW\n', '[2026-01-01 00:00:00] a secret=\n', 'Content-Disposition: form-data; name="password"\r\n\r\n', 'quoted-printable\nx=\n', "@passwd = N'", '00000000: 4150 495f 544f 4b45 4e3d 5472 346b 5139  API_TOKEN=Tr4kQ9\n']);
