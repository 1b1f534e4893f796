// Fuzzing the redactor: long hostile inputs built from the separators and
// prefixes its detectors key on, with real-shaped secrets on lines of their
// own among them. Asserts what does not depend on the machine's speed: it
// returns, and no secret survives. (Time per MB is measured by npm run bench.) One check
// is in time, as a ratio within the same run: eight times the input may not cost
// forty times the time, which a quadratic scan that the read counter of
// test/redaction-linear.test.ts cannot see (a native lastIndexOf back to the
// line's start on every match of a one-line megabyte) costs at once (64x).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { redactText } from '../../src/ledger/redact';
import { corpus } from '../redaction/corpus';
import { hostileInputs } from '../redaction/hostile';

describe('redactor fuzz', () => {
  it('hostile inputs of 256 KiB each: returns a string, and every secret set among them is gone', () => {
    const { secrets } = corpus(7);
    let k = 0;
    for (const [name, junk] of hostileInputs(256 * 1024, 99)) {
      const chosen = [secrets[k++ % secrets.length], secrets[k++ % secrets.length], secrets[k++ % secrets.length]];
      const text = `${junk}\n${chosen.map((c) => c.text).join('\n')}\n${junk.slice(0, 1000)}`;
      const out = redactText(text);
      expect(typeof out, name).toBe('string');
      for (const c of chosen) expect(out.includes(c.secret), `${name}: ${c.family}`).toBe(false);
    }
  });

  it('random mutations of secret lines never throw and never grow the secret back', () => {
    const { secrets } = corpus(11);
    let s = 12345;
    const rnd = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const noise = ' \t\n"\'`=:@/#%$&;\\-_.,|<>(){}[]';
    for (let i = 0; i < 3000; i++) {
      const c = secrets[i % secrets.length];
      let t = c.text;
      const n = 1 + Math.floor(rnd() * 4);
      for (let j = 0; j < n; j++) {
        const at = Math.floor(rnd() * (t.length + 1));
        t = t.slice(0, at) + noise[Math.floor(rnd() * noise.length)] + t.slice(at + (rnd() < 0.3 ? 1 : 0));
      }
      const out = redactText(t);
      expect(typeof out).toBe('string');
      expect(redactText(out)).toBe(out);
    }
  });

  it('redacting a redacted text changes nothing: mutations of the blind corpora (loom\'s own marks are neither names nor values)', () => {
    const dir = join(__dirname, '..', 'fixtures', 'redteam');
    const texts = readdirSync(dir).filter((f) => /^redactor-round\d+-secrets\.jsonl$/.test(f)).flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { text: string }).text));
    expect(texts.length).toBeGreaterThan(500);
    let s = 20261204;
    const rnd = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const noise = ' \t\n"\'`=:@/#%$&;\\-_.,|<>(){}[]';
    const changed: string[] = [];
    for (let i = 0; i < 3000; i++) {
      let t = texts[i % texts.length];
      for (let j = Math.floor(rnd() * 3); j > 0; j--) {
        const at = Math.floor(rnd() * (t.length + 1));
        t = t.slice(0, at) + noise[Math.floor(rnd() * noise.length)] + t.slice(at + (rnd() < 0.3 ? 1 : 0));
      }
      const out = redactText(t);
      if (redactText(out) !== out && changed.length < 5) changed.push(out.slice(0, 200));
    }
    expect(changed).toEqual([]);
  });

  it('eight times a hostile input costs well under forty times the time (no quadratic native scan)', () => {
    const best = (text: string) => {
      let t = Infinity;
      for (let i = 0; i < 3; i++) {
        const a = performance.now();
        redactText(text);
        t = Math.min(t, performance.now() - a);
      }
      return t;
    };
    const small = hostileInputs(32 * 1024, 3);
    const big = hostileInputs(256 * 1024, 3);
    const slow: string[] = [];
    small.forEach(([name, text], i) => {
      // A floor of 2 ms for the small input: below it, timer noise is the ratio.
      const ratio = best(big[i][1]) / Math.max(2, best(text));
      if (ratio > 40) slow.push(`${name}: ${ratio.toFixed(0)}x`);
    });
    expect(slow).toEqual([]);
  });
});
