// The redactor against every family of issue 12, with generated secrets in
// realistic contexts, and the look-alikes that must survive.
import { describe, expect, it } from 'vitest';
import { redact, redactText } from '../src/ledger/redact';
import { corpus } from './redaction/corpus';

const { secrets, lookalikes } = corpus();

describe('redaction families (generated corpus)', () => {
  it('has several hundred cases across the families', () => {
    expect(secrets.length).toBeGreaterThanOrEqual(300);
    expect(lookalikes.length).toBeGreaterThanOrEqual(80);
    expect(new Set(secrets.map((s) => s.family)).size).toBeGreaterThanOrEqual(25);
  });

  secrets.forEach((c, i) => {
    it(`removes ${c.family} #${i}: ${c.text.slice(0, 60).replace(/\n/g, '⏎')}`, () => {
      const out = redactText(c.text);
      expect(out).not.toContain(c.secret);
      // Not even a long piece of it (a value cut at a # or a space).
      for (const part of c.secret.split(/[\s#/!%$&;@^*()+=?~'"\\]+/)) if (part.length >= 8) expect(out).not.toContain(part);
      expect(out).toContain('[REDACTED');
    });
  });

  lookalikes.forEach((c, i) => {
    it(`keeps ${c.family} #${i}: ${c.text.slice(0, 60).replace(/\n/g, '⏎')}`, () => {
      expect(redactText(c.text)).toContain(c.keep);
    });
  });

  it('a secret inside a JSON payload member is removed wherever it nests', () => {
    for (const c of secrets.slice(0, 80)) {
      const r = redact({ tool_input: { command: c.text }, tool_response: { stdout: `ok\n${c.text}\n`, list: [c.text] } });
      expect(JSON.stringify(r.value)).not.toContain(c.secret.replace(/\\/g, '\\\\').replace(/"/g, '\\"'));
      expect(r.count).toBeGreaterThanOrEqual(3);
    }
  });

  it('redacting twice changes nothing more', () => {
    for (const c of secrets) {
      const once = redactText(c.text);
      expect(redactText(once)).toBe(once);
    }
  });
});

describe('docs/redaction.md', () => {
  it('its tables are the detector tables (npm run docs regenerates them)', async () => {
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { BEGIN, END, renderRedactionTables } = await import('../src/ledger/redaction/docs');
    const doc = readFileSync(join(__dirname, '..', 'docs', 'redaction.md'), 'utf8');
    expect(doc.slice(doc.indexOf(BEGIN), doc.indexOf(END) + END.length)).toBe(renderRedactionTables());
  });
});
