// One check for a round's new readers: a fragment repeated to 8x the length costs about 8x the reads.
import { describe, expect, it } from 'vitest';
import { redactText } from '../../src/ledger/redact';
import { work } from '../../src/ledger/redaction/work';

export function describeLinearReads(title: string, fragments: string[]): void {
  describe(title, () => {
    for (const f of fragments) {
      it(JSON.stringify(f), () => {
        const read = (n: number) => {
          const text = f.repeat(Math.ceil(n / f.length));
          work.reads = 0;
          redactText(text);
          return work.reads;
        };
        expect(read(160_000) / read(20_000)).toBeLessThan(8 * 1.5);
      });
    }
  });
}
