// The redaction screen against the detectors: a string the screen lets pass
// must hold no secret span. Checked on every string the redaction tests hold
// (the generated corpus, each cause's secrets and look-alikes, the hostile
// inputs), on each of their lines and short windows (the hook path screens
// short strings), and on random mixtures of their words. Then the gate: a
// plain record does not load the detectors, a record with a secret does and
// comes out as the detectors make it.
import { describe, expect, it } from 'vitest';
import { redact as fullRedact, secretSpans } from '../src/ledger/redact';
import { mayHoldSecret, mayHoldSecretValue, SCREEN_MAX } from '../src/ledger/redaction/screen';
import { LOOKALIKES, SECRETS } from './fixtures/redaction-causes';
import { LOOKALIKES10 } from './fixtures/redaction-causes10';
import { LOOKALIKES9, SECRETS9 } from './fixtures/redaction-causes9';
import { LOOKALIKES10A, SECRETS10A } from './fixtures/redaction-causes10a';
import { LOOKALIKES10B, SECRETS10B } from './fixtures/redaction-causes10b';
import { LOOKALIKES15, SECRETS15 } from './fixtures/redaction-causes15';
import { LOOKALIKES16, SECRETS16, STILL_SECRET16 } from './fixtures/redaction-causes16';
import { LOOKALIKES17, SECRETS17 } from './fixtures/redaction-causes17';
import { LOOKALIKES21, SECRETS21 } from './fixtures/redaction-causes21';
import { LOOKALIKES24, SECRETS24 } from './fixtures/redaction-causes24';
import { LOOKALIKES26, SECRETS26 } from './fixtures/redaction-causes26';
import { LOOKALIKES28, SECRETS28 } from './fixtures/redaction-causes28';
import { LOOKALIKES30, SECRETS30 } from './fixtures/redaction-causes30';
import { corpus } from './redaction/corpus';
import { hostileInputs } from './redaction/hostile';

const texts: string[] = [];
const { secrets, lookalikes } = corpus();
for (const c of secrets) texts.push(c.text);
for (const c of lookalikes) texts.push(c.text);
for (const [, t] of SECRETS) texts.push(t);
for (const [, t] of LOOKALIKES) texts.push(t);
for (const [, t] of SECRETS9) texts.push(t);
for (const [, t] of LOOKALIKES9) texts.push(t);
for (const [, t] of LOOKALIKES10) texts.push(t);
for (const [, t] of SECRETS10A) texts.push(t);
for (const [, t] of LOOKALIKES10A) texts.push(t);
for (const [, t] of SECRETS10B) texts.push(t);
for (const [, t] of LOOKALIKES10B) texts.push(t);
for (const [, t] of SECRETS15) texts.push(t);
for (const [, t] of LOOKALIKES15) texts.push(t);
for (const [, t] of SECRETS16) texts.push(t);
for (const [, t] of LOOKALIKES16) texts.push(t);
for (const [, t] of STILL_SECRET16) texts.push(t);
for (const [, t] of SECRETS17) texts.push(t);
for (const [, t] of LOOKALIKES17) texts.push(t);
for (const [, t] of SECRETS21) texts.push(t);
for (const [, t] of LOOKALIKES21) texts.push(t);
for (const [, t] of SECRETS24) texts.push(t);
for (const [, t] of LOOKALIKES24) texts.push(t);
for (const [, t] of SECRETS26) texts.push(t);
for (const [, t] of LOOKALIKES26) texts.push(t);
for (const [, t] of SECRETS28) texts.push(t);
for (const [, t] of LOOKALIKES28) texts.push(t);
for (const [, t] of SECRETS30) texts.push(t);
for (const [, t] of LOOKALIKES30) texts.push(t);
for (const [, t] of hostileInputs(2048, 3)) texts.push(t);

/** The text, each of its lines, each window of two and three lines, and each line's halves around a blank. */
function pieces(t: string): string[] {
  const out = new Set<string>([t]);
  const lines = t.split('\n');
  for (let i = 0; i < lines.length; i++) {
    out.add(lines[i]);
    if (i + 1 < lines.length) out.add(`${lines[i]}\n${lines[i + 1]}`);
    if (i + 2 < lines.length) out.add(`${lines[i]}\n${lines[i + 1]}\n${lines[i + 2]}`);
    const sp = lines[i].indexOf(' ', lines[i].length >> 1);
    if (sp > 0) {
      out.add(lines[i].slice(0, sp));
      out.add(lines[i].slice(sp + 1));
    }
  }
  return [...out].filter((p) => p.length >= 6 && p.length <= SCREEN_MAX);
}

function rng(seed: number) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 0x100000000;
  };
}

describe('redaction screen', () => {
  it('lets no string through that holds a secret span (every piece of every test string)', () => {
    let checked = 0;
    let passed = 0;
    const leaks: string[] = [];
    for (const t of texts) {
      for (const p of pieces(t)) {
        checked++;
        // The value screen passes a superset of what the strict one passes: checking it checks both.
        if (mayHoldSecretValue(p)) continue;
        passed++;
        const spans = secretSpans(p);
        if (spans.length > 0) leaks.push(`${JSON.stringify(p.slice(0, 160))} -> ${spans.map((s) => `${s.rule}:${JSON.stringify(p.slice(s.start, s.end))}`).join(', ')}`);
      }
    }
    expect(leaks, leaks.slice(0, 20).join('\n')).toEqual([]);
    // The screen must also let plain strings through, or it saves nothing.
    expect(checked).toBeGreaterThan(3000);
    expect(passed).toBeGreaterThan(checked / 10);
  });

  it('lets no random mixture of test words through that holds a secret span', () => {
    const words = [...new Set(texts.join(' ').split(/[\s]+/).filter((w) => w.length > 0 && w.length < 80))];
    const r = rng(12);
    const seps = [' ', ' ', ' ', '=', ': ', '="', "'", ' -', ' --', '/', ':', '@', ',', ' | '];
    const leaks: string[] = [];
    for (let i = 0; i < 20000; i++) {
      let s = '';
      const n = 1 + Math.floor(r() * 8);
      for (let k = 0; k < n; k++) s += (k ? seps[Math.floor(r() * seps.length)] : '') + words[Math.floor(r() * words.length)];
      if (mayHoldSecretValue(s)) continue;
      const spans = secretSpans(s);
      if (spans.length > 0) leaks.push(`${JSON.stringify(s)} -> ${spans.map((x) => `${x.rule}:${JSON.stringify(s.slice(x.start, x.end))}`).join(', ')}`);
    }
    expect(leaks, leaks.slice(0, 20).join('\n')).toEqual([]);
  });

  it('lets no single plain word of the test strings through as a value that holds a secret span', () => {
    const words = new Set<string>();
    for (const t of texts) for (const w of t.split(/[^A-Za-z0-9._/-]+/)) if (w.length > 0 && w.length <= 256) words.add(w);
    const leaks: string[] = [];
    let passed = 0;
    for (const w of words) {
      if (mayHoldSecretValue(w)) continue;
      passed++;
      const spans = secretSpans(w);
      if (spans.length > 0) leaks.push(`${JSON.stringify(w)} -> ${spans.map((x) => x.rule).join(', ')}`);
    }
    expect(leaks, leaks.slice(0, 20).join('\n')).toEqual([]);
    expect(passed).toBeGreaterThan(1000);
  });

  it('judges a key by its sensitive words, and a plain value without them; token prefixes count in both', () => {
    for (const s of ['password', 'db_password', 'api_token']) expect(mayHoldSecret(s), s).toBe(true);
    for (const s of ['master', 'feature/login', 'src/auth/token.ts', 'secrets-manager']) expect(mayHoldSecretValue(s), s).toBe(false);
    for (const s of ['ghp_Zq8Lm2Zx5Tv9Rn3Wp7Yb1Hc4Ds6Fg0Jk2La5', 'AKIAQX7LM2ZP9TV4RN8W', 'password=hunter2', 'master key: Qx7Lm2Zp9']) expect(mayHoldSecretValue(s), s).toBe(true);
  });

  it('passes what a plain PreToolUse record holds', () => {
    for (const s of ['npm test && git status --short', '/home/dev/project', 'Bash', '3f2b9c1e-8a7d-4e6f-9b0c-1d2e3f4a5b6c', 'PreToolUse', 'rule shell-rm-home: rm -rf targets the home folder', 'git diff --stat HEAD~1', 'ls -la src/components']) {
      expect(mayHoldSecret(s), s).toBe(false);
    }
  });
});

describe('redaction gate', () => {
  it('records a plain record without loading the detectors, and one with a secret as the detectors do', async () => {
    const { vi } = await import('vitest');
    vi.resetModules();
    const gate = await import('../src/ledger/redact-gate');
    // The shape the runner records for a PreToolUse (record.ts): the tool call, its actor, the guard's answer.
    // On a branch whose name holds a sensitive word (master, feature/login), in a file named for one: still plain.
    const plain = { data: { actor: { email: 'dev@example.org', host: 'laptop', user: 'root' }, git_branch: 'master', other_branch: 'feature/login-token', file: 'src/auth/password-reset.ts', guard_decision: 'allow', hook: { attempts: 1, duration_ms: 7, status: 'ok' }, input_summary: 'npm test && git status --short', paths: [], rules: [], tool: 'Bash', tool_kind: 'shell', tool_use_id: null, cwd: '/home/dev/project' }, session: '3f2b9c1e-8a7d-4e6f-9b0c-1d2e3f4a5b6c' };
    expect(gate.redact(plain)).toEqual({ value: plain, count: 0 });
    expect(gate.redactText('git log --oneline -5')).toBe('git log --oneline -5');
    expect(gate.detectorsLoaded()).toBe(false);
    const withSecret = { data: { input_summary: 'curl -H "Authorization: Bearer q8Zt4Lm2Xv7Pn3Wr9Ks5" https://api.example.net' }, session: 's' };
    expect(gate.redact(withSecret)).toEqual(fullRedact(withSecret));
    expect(gate.detectorsLoaded()).toBe(true);
    expect(gate.clipRedacted(`${'x'.repeat(120)} export DB_PASSWORD=tulip-Quartz771! ${'y'.repeat(200)}`, 160)).not.toContain('tulip-Quartz771!');
  });
});
