import { describe, expect, it } from 'vitest';
import { analyzeCommand } from '../src/guards/shell/analyze';
import { CAUSES } from './fixtures/guard-causes';
import { CAUSES as FOREIGN } from './fixtures/guard-causes-foreign';
import { CAUSES as SYSTEM } from './fixtures/guard-causes-system';
import { CAUSES3 } from './fixtures/guard-causes3';
import { CAUSES4 } from './fixtures/guard-causes4';
import { CAUSES5 } from './fixtures/guard-causes5';
import { CAUSES9 } from './fixtures/guard-causes9';
import { CAUSES10 } from './fixtures/guard-causes10';
import { CAUSES11 } from './fixtures/guard-causes11';
import { CAUSES12 } from './fixtures/guard-causes12';
import { CAUSES14, CAUSES15, CAUSES16, CAUSES17, CAUSES18, CAUSES19 } from './fixtures/guard-causes14';
import { CAUSES21, CAUSES22, CAUSES23 } from './fixtures/guard-causes21';
import { CAUSES24 } from './fixtures/guard-causes24';
import { CAUSES26 } from './fixtures/guard-causes26';
import { CAUSES27 } from './fixtures/guard-causes27';
import { CAUSES28, CAUSES28B, CAUSES28C } from './fixtures/guard-causes28';
import { CAUSES30 } from './fixtures/guard-causes30';
import { describeCauses, guardBase } from './guard-cause-suite';

// Each red-team round adds its own file of causes.
describeCauses('causes of red-team misses, each with its own commands', { ...CAUSES, ...CAUSES3, ...CAUSES4, ...CAUSES5, ...CAUSES9, ...CAUSES10, ...CAUSES11, ...CAUSES12, ...CAUSES14, ...CAUSES15, ...CAUSES16, ...CAUSES17, ...CAUSES18, ...CAUSES19, ...CAUSES21, ...CAUSES22, ...CAUSES23, ...CAUSES24, ...CAUSES26, ...CAUSES27, ...CAUSES28, ...CAUSES28B, ...CAUSES28C, ...CAUSES30, ...SYSTEM, ...FOREIGN });

describe('a home folder under the temp folder (a sandbox or CI runner sets HOME=/tmp/...)', () => {
  const inTmpHome = (c: string, project = '/tmp/ci-work/project') => analyzeCommand(c, { ...guardBase, home: '/tmp/runner-home', projectDir: project, cwd: project });
  it('is still the home folder: deleting it, or what holds it, is denied; its caches and other temp paths are not', () => {
    for (const c of ['rm -rf ~', 'rm -rf "$HOME"', 'rm -rf /tmp/runner-home', 'find ~ -delete', 'rm -rf ~/', 'rm -rf ~/*']) expect(inTmpHome(c).decision, c).toBe('deny');
    for (const c of ['rm -rf ~/.cache/pip', 'rm -rf /tmp/other-build', 'rm -rf /tmp/ci-work/project/dist']) expect(inTmpHome(c).decision, c).toBe('allow');
    expect(inTmpHome('rm -rf ~', '/tmp/runner-home/src/app').decision).toBe('deny');
  });
});
