// loom init [--harness claude,codex,...] [--yes] [--project-dir D]: the one
// command a team runs once per repository. Wires each harness in committed
// (project) settings, writes a commented starter .loom/policy.json, keeps
// loom's local state out of git, and says what to commit. Asks nothing when
// flags are given or stdin is not a terminal; a second run changes nothing.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { PACKAGE_NAME } from '../../install/hook-command';
import { projectFolderProblem } from '../../runner/project-dir';
import { FlagError, parseFlags, projectDirFrom } from '../flags';
import { paint, tone } from '../output';
import { HARNESSES, installHarness, writeAtomic } from './install';

/** Where each harness's project settings live: also how init guesses which ones a repository uses. */
const HARNESS_MARKERS: Record<string, string> = { claude: '.claude', codex: '.codex', gemini: '.gemini', cursor: '.cursor', opencode: '.opencode', kilo: '.kilo', copilot: '.github/hooks', qwen: '.qwen', droid: '.factory', crush: 'crush.json' };

/** Local state that never belongs in git: the ledger (each machine has its own), backups, reports. */
export const GITIGNORE_LINES = ['.loom/compliance/', '.loom/backups/', '.loom/reports/'];

/** The files of `files` (relative to `dir`) that git would ignore there; none when `dir` is no git repository or git is missing. */
function gitIgnored(dir: string, files: string[]): string[] {
  try {
    const r = spawnSync('git', ['check-ignore', '--', ...files], { cwd: dir, encoding: 'utf8', timeout: 5000 });
    return r.status === 0 ? r.stdout.split('\n').map((l) => l.trim()).filter(Boolean) : [];
  } catch {
    return [];
  }
}

export const STARTER_POLICY = `// loom policy for this repository: commit this file.
// Every key is optional; what is not set here keeps loom's default
// (node_modules/${PACKAGE_NAME}/config/policy.default.json lists them all).
// Comments are allowed. The agent cannot edit this file: the guard denies it.
{
  "$schema": "../node_modules/${PACKAGE_NAME}/config/policy.schema.json",
  "version": 1,

  // Each rule id can be "allow", "ask" or "deny" (\`loom explain "<command>"\`
  // shows which rules a command hits). For example:
  "rules": {
    // "git-clean": "deny",
    // "sudo": "deny"
  },

  // Branches a force push or delete may never touch (globs).
  "protectedBranches": ["main", "master", "release/*"],

  // More files no tool may read or write (globs or /regex/), on top of
  // .env*, keys and cloud credentials.
  "sensitivePaths": [],

  // Folders outside the project that tools may write to (besides the temp folder).
  "allowedOutsidePaths": []
}
`;

function parseHarnesses(list: string): string[] {
  const names = [...new Set(list.split(',').map((s) => s.trim()).filter(Boolean))];
  const bad = names.filter((n) => !HARNESSES.includes(n));
  if (bad.length || !names.length) throw new FlagError(`--harness: ${bad.length ? `unknown "${bad.join('", "')}"; ` : ''}expected a comma-separated list of ${HARNESSES.join(', ')}`);
  return names;
}

const detected = (projectDir: string) => HARNESSES.filter((h) => existsSync(join(projectDir, HARNESS_MARKERS[h])));

async function ask(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await rl.question(question);
  } finally {
    rl.close();
  }
}

/** Adds the missing lines to .gitignore; returns whether the file changed. */
function ensureGitignore(projectDir: string): boolean {
  const file = join(projectDir, '.gitignore');
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const have = new Set(text.split(/\r?\n/).map((l) => l.trim()));
  const missing = GITIGNORE_LINES.filter((l) => !have.has(l) && !have.has(l.replace(/\/$/, '')) && !have.has(`/${l}`));
  if (!missing.length) return false;
  const sep = text === '' || text.endsWith('\n') ? '' : '\n';
  writeAtomic(file, `${text}${sep}${text === '' ? '' : '\n'}# loom: local state (ledger, backups, reports)\n${missing.join('\n')}\n`);
  return true;
}

function dependencyState(projectDir: string): 'listed' | 'missing' | 'no-package-json' {
  const file = join(projectDir, 'package.json');
  if (!existsSync(file)) return 'no-package-json';
  try {
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, string> | undefined>;
    // loom's own repository runs its checkout's runner (see runnerLocation): nothing to add.
    return (pkg as { name?: unknown }).name === PACKAGE_NAME || pkg.devDependencies?.[PACKAGE_NAME] || pkg.dependencies?.[PACKAGE_NAME] ? 'listed' : 'missing';
  } catch {
    return 'missing';
  }
}

export const INIT_FLAGS = { values: ['harness', 'project-dir'], booleans: ['yes'] };

export async function initCommand(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, INIT_FLAGS);
  if (flags.positional.length) throw new FlagError(`unexpected argument "${flags.positional[0]}"`);
  const projectDir = resolve(flags.values['project-dir'] ?? projectDirFrom(flags));
  // An existing project folder only: a mistyped --project-dir is not created, / and /etc are no project.
  const problem = projectFolderProblem(projectDir);
  if (problem) throw new FlagError(`${flags.values['project-dir'] !== undefined ? '--project-dir: ' : ''}${problem}`);
  const found = detected(projectDir);
  const fallback = found.length ? found : ['claude'];
  let harnesses: string[];
  if (flags.values.harness) harnesses = parseHarnesses(flags.values.harness);
  else if (flags.booleans.has('yes') || !process.stdin.isTTY) harnesses = fallback;
  else {
    const answer = await ask(`Which agents does this repository use? (${HARNESSES.join(', ')}) [${fallback.join(',')}] `);
    harnesses = answer.trim() ? parseHarnesses(answer) : fallback;
  }

  const rel = (f: string) => relative(projectDir, f) || f;
  const toCommit = new Set<string>();
  const lines: string[] = [];
  for (const h of harnesses) {
    const r = installHarness({ harness: h, scope: 'project', projectDir });
    lines.push(`${tone(r.changed ? 'wired' : 'already wired')} ${h}: ${rel(r.file)}`);
    for (const n of r.notes) lines.push(`  ${tone('note')}: ${n}`);
    toCommit.add(rel(r.file));
  }
  const policy = join(projectDir, '.loom', 'policy.json');
  if (existsSync(policy)) lines.push(`${tone('kept')} .loom/policy.json`);
  else {
    writeAtomic(policy, STARTER_POLICY);
    lines.push(`${tone('wrote')} .loom/policy.json (a commented starter)`);
  }
  toCommit.add('.loom/policy.json');
  lines.push(ensureGitignore(projectDir) ? `${tone('added')} ${GITIGNORE_LINES.join(', ')} to .gitignore` : paint('dim', '.gitignore already ignores loom\'s local state'));
  toCommit.add('.gitignore');

  const dep = dependencyState(projectDir);
  if (dep === 'listed') {
    toCommit.add('package.json');
    if (existsSync(join(projectDir, 'package-lock.json'))) toCommit.add('package-lock.json');
  }
  // Lock files of the other package managers travel with the dependency too.
  if (dep === 'listed') for (const lock of ['pnpm-lock.yaml', 'yarn.lock', 'bun.lockb', 'bun.lock']) if (existsSync(join(projectDir, lock))) toCommit.add(lock);
  let out = `${lines.join('\n')}\n\n${paint('bold', 'Commit these files:')}\n  git add ${[...toCommit].join(' ')}\n`;
  // A file the repository's .gitignore ignores is skipped by `git add -A` and IDE commits: the team would get no hooks.
  const ignored = gitIgnored(projectDir, [...toCommit]);
  if (ignored.length) out += `\n${tone('warning')}: .gitignore ignores ${ignored.join(', ')}: commit ${ignored.length === 1 ? 'it' : 'them'} with \`git add -f ${ignored.join(' ')}\`, or unignore ${ignored.length === 1 ? 'it' : 'them'}; teammates get no hooks or policy from a file git leaves out.\n`;
  if (dep === 'missing') out += `\nThe hooks run loom from node_modules: add it as a dev dependency and commit that too:\n  npm install -D ${PACKAGE_NAME}\n`;
  if (dep === 'no-package-json') out += `\nThe hooks run loom from node_modules and this folder has no package.json:\n  npm init -y && npm install -D ${PACKAGE_NAME}\n`;
  out += `\nTeammates run \`npm install\` after pulling; until they do, their agent is blocked with that instruction.\nCheck the setup any time with \`loom doctor\`.\n`;
  process.stdout.write(out);
  return 0;
}
