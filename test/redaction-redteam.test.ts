// A blind corpus of secrets in tools' output (the tenth), written by a helper that saw only the issue's
// families, never the detectors or our tests; scored once as it arrived (229/243 lines with every secret
// gone, 3/111 look-alikes touched), then its misses fixed by cause (test/redaction-causes24.test.ts). Kept
// here so the score holds: a line counts only when every one of its secrets is gone (or every kept string stays).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { redactText } from '../src/ledger/redact';

const load = <T>(name: string): T[] =>
  readFileSync(join(__dirname, 'fixtures', 'redteam', name), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);

describe('blind redactor corpus, round 10 (first look 229/243, 3/111 look-alikes)', () => {
  const secrets = load<{ family: string; text: string; secrets: string[] }>('redactor-round10-secrets.jsonl');
  const lookalikes = load<{ family: string; text: string; keep: string[] }>('redactor-round10-lookalikes.jsonl');
  it('removes every secret of at least 242 of its 243 lines (98% is the issue\'s bar)', () => {
    const missed = secrets.filter((c) => {
      const out = redactText(c.text);
      return c.secrets.some((s) => out.includes(s));
    });
    expect(secrets.length - missed.length, missed.map((c) => c.family).join(', ')).toBeGreaterThanOrEqual(242);
  });
  it('touches at most one of its 111 look-alikes (the issue allows 2)', () => {
    const touched = lookalikes.filter((c) => {
      const out = redactText(c.text);
      return c.keep.some((k) => !out.includes(k));
    });
    expect(touched.length, touched.map((c) => c.family).join(', ')).toBeLessThanOrEqual(1);
  });
});

describe('blind redactor corpus, round 11 (first look 366/384, 3/121 look-alikes)', () => {
  const secrets = load<{ family: string; text: string; secrets: string[] }>('redactor-round11-secrets.jsonl');
  const lookalikes = load<{ family: string; text: string; keep: string[] }>('redactor-round11-lookalikes.jsonl');
  it('removes every secret of at least 383 of its 384 lines (98% is the issue\'s bar)', () => {
    const missed = secrets.filter((c) => {
      const out = redactText(c.text);
      return c.secrets.some((s) => out.includes(s));
    });
    expect(secrets.length - missed.length, missed.map((c) => c.family).join(', ')).toBeGreaterThanOrEqual(383);
  });
  it('touches none of its 121 look-alikes (the issue allows 2)', () => {
    const touched = lookalikes.filter((c) => {
      const out = redactText(c.text);
      return c.keep.some((k) => !out.includes(k));
    });
    expect(touched.length, touched.map((c) => c.family).join(', ')).toBe(0);
  });
});

describe('blind redactor corpus, round 12 (first look 476/504, 22/178 look-alikes)', () => {
  const secrets = load<{ family: string; text: string; secrets: string[] }>('redactor-round12-secrets.jsonl');
  const lookalikes = load<{ family: string; text: string; keep: string[] }>('redactor-round12-lookalikes.jsonl');
  it('removes every secret of at least 495 of its 504 lines (98% is the issue\'s bar)', () => {
    const missed = secrets.filter((c) => {
      const out = redactText(c.text);
      return c.secrets.some((s) => out.includes(s));
    });
    expect(secrets.length - missed.length, missed.map((c) => c.family).join(', ')).toBeGreaterThanOrEqual(495);
  });
  it("touches at most 2 of its 178 look-alikes (the issue allows 2; GitHub's repository public key, twice, is left)", () => {
    const touched = lookalikes.filter((c) => {
      const out = redactText(c.text);
      return c.keep.some((k) => !out.includes(k));
    });
    expect(touched.length, touched.map((c) => c.family).join(', ')).toBeLessThanOrEqual(2);
  });
});
