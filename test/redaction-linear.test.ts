// The redactor does linear work on hostile inputs (issue 12): counted in
// characters read by the detectors (src/ledger/redaction/work.ts), not in
// milliseconds, so the test holds on a loaded machine. Each input is redacted
// at 16 KiB and at eight times that; the work must grow about eight times,
// and stay within a fixed number of reads per input character. A detector
// that rescans from every match (the old a=b=c and URL @ scans) fails both.
// Wall-clock MB/s is in `npm run bench -- redaction`.
import { describe, expect, it } from 'vitest';
import { redactText } from '../src/ledger/redact';
import { TOKEN_SHAPES } from '../src/ledger/redaction/token-shapes';
import { work } from '../src/ledger/redaction/work';
import { hostileInputs } from './redaction/hostile';

const SMALL = 16 * 1024;
/**
 * Reads per input character: about one per detector pass, and the decoded, normalized and search-output
 * views read their parts again. Today's worst is separator noise at about 82 (every view applies to it,
 * and each reader with a pass of its own, the encoded-blob reader the latest, adds about one per view).
 */
const MAX_READS_PER_CHAR = 86;
/** Eight times the input may cost at most twelve times the work (generous for fixed costs). */
const MAX_GROWTH = 12;

function reads(text: string): number {
  work.reads = 0;
  redactText(text);
  return work.reads;
}

/** Random concatenations of the hostile fragments: mixes that no single input has. */
function mixtures(bytes: number, seed: number): [string, string][] {
  const parts = hostileInputs(256, 1).map(([, t]) => t);
  const out: [string, string][] = [];
  let x = seed;
  const rnd = () => ((x = (x * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  for (let k = 0; k < 8; k++) {
    const pick = Array.from({ length: 3 }, () => parts[Math.floor(rnd() * parts.length)].slice(0, 8 + Math.floor(rnd() * 24)));
    const unit = pick.join('');
    out.push([`mixture ${k}: ${JSON.stringify(unit.slice(0, 40))}`, unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes)]);
  }
  return out;
}

describe('redaction does linear work', () => {
  const small = [...hostileInputs(SMALL, 5), ...mixtures(SMALL, 17)];
  const big = [...hostileInputs(8 * SMALL, 5), ...mixtures(8 * SMALL, 17)];

  small.forEach(([name, text], i) => {
    it(`${name}: 8x the input costs about 8x the reads, and a bounded number per character`, () => {
      const a = reads(text);
      const b = reads(big[i][1]);
      expect(a).toBeGreaterThan(text.length); // the counter counts (every detector reads the text at least once)
      expect(b / a, `${name}: ${a} reads at 1x, ${b} at 8x`).toBeLessThanOrEqual(MAX_GROWTH);
      expect(b / big[i][1].length, `${name}: reads per character`).toBeLessThanOrEqual(MAX_READS_PER_CHAR);
    });
  });

  it('the counter sees a rescan: a scan restarted at every match is quadratic in reads', () => {
    // A stand-in for the bug class: read to the end of the value from every `=` (what the memo in findAssignments prevents).
    const text = 'x='.repeat(4096);
    work.reads = 0;
    for (let i = text.indexOf('='); i !== -1; i = text.indexOf('=', i + 1)) work.reads += text.length - i;
    expect(work.reads / text.length).toBeGreaterThan(MAX_READS_PER_CHAR);
  });

  it('token shapes use bounded repetition only, and no quantified group holds a quantifier', () => {
    for (const shape of TOKEN_SHAPES) {
      // Escapes and character classes hold no quantifiers of the pattern.
      const bare = shape.re.source.replace(/\\./g, 'e').replace(/\[[^\]]*\]/g, 'c');
      expect(bare, shape.name).not.toMatch(/[*+]|\{\d+,\}/);
      // A group followed by a quantifier must hold none itself ((?:ab{1,3}){2} backtracks).
      const groups = bare.match(/\([^()]*\)(?:\{\d+(?:,\d+)?\}|\?)/g) ?? [];
      for (const g of groups) expect(g.slice(0, g.lastIndexOf(')')), `${shape.name}: ${g}`).not.toMatch(/\{\d+,\d+\}|\?(?!:|<|=|!)/);
    }
  });
});
