// Scripts already on disk that a command runs are judged by their text (a
// script written by one tool call and run by the next hides nothing), read
// bounded: a FIFO, a device, a large or binary file is never read.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeCommand, type AnalyzeOptions } from '../src/guards/shell/analyze';
import { loadPolicy } from '../src/policy/policy';
import { ROOT, tempDir } from './helpers';

function setup() {
  const project = tempDir();
  mkdirSync(join(project, 'scripts'));
  const put = (name: string, text: string | Buffer, exec = true) => {
    writeFileSync(join(project, name), text);
    if (exec) chmodSync(join(project, name), 0o755);
  };
  put('scripts/wipe.sh', '#!/bin/sh\nset -e\nrm -rf .loom/compliance\n');
  put('scripts/clean.sh', '#!/usr/bin/env bash\nrm -rf dist build\nnpm test\n');
  put('scripts/push.sh', 'git push --force origin main\n');
  put('scripts/tool.py', '#!/usr/bin/env python3\nprint("rm -rf ~")\n');
  put('scripts/big.sh', '#' + 'x'.repeat(70 * 1024) + '\nrm -rf ~\n');
  put('scripts/bin.sh', Buffer.from([0x72, 0x6d, 0x00, 0x20, 0x2d, 0x72, 0x66]));
  execFileSync('mkfifo', [join(project, 'scripts/fifo.sh')]);
  const opts: AnalyzeOptions = { projectDir: project, cwd: project, home: '/home/nobody-here', tmp: '/var/tmp/loom-none', policy: loadPolicy(ROOT, project), protectedPaths: [], currentBranch: 'feature' };
  return { project, judge: (c: string) => analyzeCommand(c, opts).decision };
}

describe('scripts on disk are judged by their text', () => {
  it('a script that deletes the ledger or force-pushes main is stopped however it is run', () => {
    const { judge } = setup();
    for (const c of ['bash scripts/wipe.sh', './scripts/wipe.sh', 'sh -e scripts/wipe.sh', 'source scripts/wipe.sh', '. ./scripts/wipe.sh', 'bash scripts/push.sh']) expect(judge(c), c).toBe('deny');
  });
  it('an everyday script, a script in another language run by its path, and files it must not read are allowed without hanging', () => {
    const { judge } = setup();
    // The FIFO would hang a blocking open; the large and binary files are not read.
    for (const c of ['bash scripts/clean.sh', './scripts/clean.sh', './scripts/tool.py', 'bash scripts/fifo.sh', 'bash scripts/big.sh', 'bash scripts/bin.sh', 'bash scripts/missing.sh']) expect(judge(c), c).toBe('allow');
  });
});
