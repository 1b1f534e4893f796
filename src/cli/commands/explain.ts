// loom explain "<command>": how the shell guard sees a command.
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { analyzeCommand } from '../../guards/shell/analyze';
import { loadPolicy } from '../../policy/policy';
import { parseFlags, projectDirFrom, FlagError } from '../flags';
import { tone } from '../output';

export function explainCommand(argv: string[]): number {
  const flags = parseFlags(argv, { values: ['project-dir', 'cwd', 'branch'], booleans: ['json'] });
  if (flags.positional.length !== 1) throw new FlagError('give the command to explain as one quoted argument: loom explain "rm -rf /"');
  const projectDir = resolve(projectDirFrom(flags));
  const packRoot = join(__dirname, '..');
  const policy = loadPolicy(packRoot, projectDir);
  const a = analyzeCommand(flags.positional[0], {
    projectDir,
    cwd: resolve(flags.values.cwd ?? projectDir),
    home: process.env.HOME || homedir(),
    tmp: resolve(tmpdir()),
    policy,
    protectedPaths: ['config', 'hooks', 'handlers', 'dist'].map((d) => join(packRoot, d)),
    currentBranch: flags.values.branch,
  });
  if (flags.booleans.has('json')) {
    process.stdout.write(JSON.stringify(a, null, 2) + '\n');
    return 0;
  }
  const out: string[] = [`decision: ${tone(a.decision.toUpperCase())}`, '', 'simple commands found:'];
  for (const c of a.commands) out.push(`  ${'  '.repeat(c.depth)}${c.argv.map((x) => (/\s/.test(x) ? JSON.stringify(x) : x)).join(' ').replace(/\u0000/g, '$…')}   [${c.via}]`);
  out.push('', a.hits.length ? 'rules hit:' : 'rules hit: none');
  for (const h of a.hits) out.push(`  ${tone(h.action.padEnd(5))} ${h.rule}: ${h.detail}  (\`${h.segment}\`)`);
  process.stdout.write(out.join('\n') + '\n');
  return 0;
}
