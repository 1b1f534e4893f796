// loom explain "<command>": how the shell guard sees a command.
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { analyzeCommand } from '../../guards/shell/analyze';
import { loadPolicy } from '../../policy/policy';
import { readBranch } from '../../guards/context';
import { parseFlags, projectDirFrom, FlagError } from '../flags';
import { tone } from '../output';

export function explainCommand(argv: string[]): number {
  const flags = parseFlags(argv, { values: ['project-dir', 'cwd', 'branch'], booleans: ['json', 'rules'], positionals: 'own' });
  if (flags.booleans.has('rules')) return listRules(resolve(projectDirFrom(flags)), flags.booleans.has('json'));
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
    // As the hook reads it (the project's HEAD), unless --branch says which to assume.
    currentBranch: flags.values.branch ?? readBranch(projectDir),
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

/** `loom explain --rules`: every rule id a policy may name, with the action it has in this project (defaults, packs, the project's policy). */
function listRules(projectDir: string, json: boolean): number {
  const policy = loadPolicy(join(__dirname, '..'), projectDir);
  const custom = (policy.commandRules ?? []).map((r) => ({ id: r.id, action: r.action, custom: true }));
  const builtIn = Object.entries(policy.rules).map(([id, action]) => ({ id, action, custom: false }));
  const all = [...builtIn, ...custom].sort((a, b) => a.id.localeCompare(b.id));
  if (json) {
    process.stdout.write(JSON.stringify(all, null, 2) + '\n');
    return 0;
  }
  const width = Math.max(...all.map((r) => r.id.length));
  const out = all.map((r) => `${r.id.padEnd(width)}  ${tone(r.action)}${r.custom ? '  (custom rule)' : ''}`);
  out.push('', 'Set one in .loom/policy.json: { "rules": { "<id>": "deny" | "ask" | "allow" } }');
  process.stdout.write(out.join('\n') + '\n');
  return 0;
}
