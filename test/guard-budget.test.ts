// The guard's work budget is per analysis. loom serve's watchdog ends an
// over-long analysis with a vm timeout, which stops it without running its
// `finally`; the next analysis must start with a full budget, or every later
// harmless call would be denied `too-complex` (and the file-write rules,
// which stop early past a budget, would let writes through).
import { describe, expect, it } from 'vitest';
import { checkFileWrites } from '../src/guards/file-write';
import { scanState } from '../src/guards/shell/lexer';
import { work } from '../src/guards/shell/work';
import { guardBase, judge } from './guard-cause-suite';

describe('a budget left spent by an analysis that never finished', () => {
  it('does not deny the next harmless command, and still denies a dangerous one', () => {
    work.limit = work.units - 1;
    expect(judge('ls -la && git status').decision).toBe('allow');
    work.limit = work.units - 1;
    expect(judge('rm -rf ~').decision).toBe('deny');
  });
  it('does not let a write to hook settings through the file-write rules', () => {
    work.limit = work.units - 1;
    const hits = checkFileWrites(['.claude/settings.json'], { ...guardBase } as never);
    expect(hits.some((h) => h.rule === 'modify-hook-settings' && h.action === 'deny')).toBe(true);
  });
  it('a scanner nesting count left raised does not make every later $(...) unterminated', () => {
    const fresh = judge('echo "$(git rev-parse HEAD)"; echo $(rm -rf ~)');
    // What an interrupted analysis deep in nested substitutions leaves behind (its `finally` never ran).
    scanState.nest = 10_000;
    const after = judge('echo "$(git rev-parse HEAD)"; echo $(rm -rf ~)');
    expect(after.decision).toBe('deny');
    expect(after.reason).toBe(fresh.reason);
    scanState.nest = 10_000;
    expect(judge('echo "$(date)"').decision).toBe('allow');
  });
  it('still stops a command past the budget within one analysis', () => {
    expect(judge('ls;'.repeat(80_000)).decision).toBe('deny');
    expect(judge('echo ok').decision).toBe('allow');
  });
});
