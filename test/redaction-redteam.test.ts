// Blind corpora of secrets in tools' output, each written by a helper that saw only the issue's families, never
// the detectors, our tests or the earlier corpora; scored once as it arrived (the first look), then its misses
// fixed by cause (test/redaction-causes24.test.ts, test/redaction-causes26.test.ts). Kept here so the scores
// hold: a line counts only when every one of its secrets is gone (or every kept string stays).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { redactText } from '../src/ledger/redact';

const load = <T>(name: string): T[] =>
  readFileSync(join(__dirname, 'fixtures', 'redteam', name), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);

interface Round {
  round: number;
  firstLook: string;
  /** Lines with every secret gone, at least. */
  removed: number;
  /** Look-alike lines touched, at most (the issue allows 2), and what is left touched. */
  touched: number;
  left?: string;
}

const ROUNDS: Round[] = [
  { round: 10, firstLook: '229/243, 3/111 look-alikes', removed: 242, touched: 1 },
  { round: 11, firstLook: '366/384, 3/121 look-alikes', removed: 383, touched: 0 },
  { round: 12, firstLook: '476/504, 22/178 look-alikes', removed: 497, touched: 2, left: "GitHub's repository public key, twice" },
  { round: 13, firstLook: '456/475, 3/191 look-alikes', removed: 475, touched: 2, left: "cosign's public signatures in its verify output, twice" },
  { round: 14, firstLook: '393/454, 2/185 look-alikes', removed: 427, touched: 2, left: 'a protobuf base64 blob and a variable name beside its placeholder' },
  { round: 15, firstLook: '634/689, 0/211 look-alikes', removed: 671, touched: 0 },
  { round: 16, firstLook: '574/605, 7/204 look-alikes', removed: 594, touched: 0 },
  { round: 17, firstLook: '496/504, 0/200 look-alikes (written as an acceptance test)', removed: 500, touched: 0 },
];

for (const r of ROUNDS) {
  describe(`blind redactor corpus, round ${r.round} (first look ${r.firstLook})`, () => {
    const secrets = load<{ family: string; text: string; secrets: string[] }>(`redactor-round${r.round}-secrets.jsonl`);
    const lookalikes = load<{ family: string; text: string; keep: string[] }>(`redactor-round${r.round}-lookalikes.jsonl`);
    it(`removes every secret of at least ${r.removed} of its ${secrets.length} lines (98% is the issue's bar)`, () => {
      const missed = secrets.filter((c) => {
        const out = redactText(c.text);
        return c.secrets.some((s) => out.includes(s));
      });
      expect(secrets.length - missed.length, missed.map((c) => c.family).join(', ')).toBeGreaterThanOrEqual(r.removed);
    });
    it(`touches at most ${r.touched} of its ${lookalikes.length} look-alikes${r.left ? ` (left: ${r.left})` : ''}`, () => {
      const touched = lookalikes.filter((c) => {
        const out = redactText(c.text);
        return c.keep.some((k) => !out.includes(k));
      });
      expect(touched.length, touched.map((c) => c.family).join(', ')).toBeLessThanOrEqual(r.touched);
    });
  });
}
