// loom doctor [--json]: is loom installed and working here? One line per
// check; each failing one says how to fix it. Exit 0 all good, 1 otherwise.
import { accessSync, constants, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadPolicy } from '../../policy/policy';
import { loadRegistry } from '../../registry/load';
import { validateConfigs } from '../../validate/validate';
import { verifyLedger } from '../../ledger/verify';
import { compliancePaths } from '../../ledger/paths';
import { probeSqlite } from '../../ledger/store';
import { parseFlags, projectDirFrom } from '../flags';
import { teamChecks } from '../../team/doctor';

interface Check {
  name: string;
  ok: boolean;
  detail: string;
  fix?: string;
}

export function doctorChecks(project: string, pack: string, env: NodeJS.ProcessEnv = process.env): Check[] {
  const checks: Check[] = [];
  const add = (name: string, ok: boolean, detail: string, fix?: string) => checks.push({ name, ok, detail, fix: ok ? undefined : fix });
  const [maj, min] = process.versions.node.split('.').map(Number);
  add('node', maj > 20 || (maj === 20 && min >= 19), `Node ${process.versions.node}`, 'install Node 20.19 or newer');
  try {
    add('better-sqlite3', true, `loads (SQLite ${probeSqlite()})`);
  } catch (e) {
    add('better-sqlite3', false, `does not load: ${(e as Error).message.split('\n')[0]}`, 'run npm ci in the loom folder (it compiles the addon for this Node)');
  }
  try {
    const defs = loadRegistry(join(pack, 'config', 'hooks.json'));
    add('registry', true, `${defs.length} hooks in config/hooks.json`);
    const notExec = defs.filter((d) => {
      const w = join(pack, 'hooks', d.id);
      if (!existsSync(w)) return true;
      try {
        accessSync(w, constants.X_OK);
        return false;
      } catch {
        return true;
      }
    });
    add('wrappers', notExec.length === 0, notExec.length ? `missing or not executable: ${notExec.map((d) => `hooks/${d.id}`).join(', ')}` : `${defs.length} wrappers present and executable`, 'run npm run gen:wrappers (or chmod +x hooks/*)');
  } catch (e) {
    add('registry', false, (e as Error).message.split('\n')[0], 'fix config/hooks.json (see loom validate)');
  }
  try {
    loadPolicy(pack, project);
    add('policy', true, existsSync(join(project, '.loom', 'policy.json')) ? 'defaults + .loom/policy.json valid' : 'defaults valid (no .loom/policy.json)');
  } catch (e) {
    add('policy', false, (e as Error).message.split('\n')[0], 'fix the file and JSON path named above');
  }
  const v = validateConfigs(project, pack, env);
  for (const h of v.harnesses) add(`harness ${h.harness}`, h.loomWired && !h.disableAllHooks, `${h.file}: loom ${h.loomWired ? 'wired' : 'not wired'}${h.disableAllHooks ? ', disableAllHooks is on' : ''}`, h.disableAllHooks ? 'set disableAllHooks to false' : `run loom install --harness ${h.harness === 'native' ? 'claude' : h.harness}`);
  if (!v.harnesses.length) add('harnesses', false, 'no harness settings found in this project or your home', 'run loom install --harness claude|codex|gemini|cursor|opencode');
  const errors = v.diagnostics.filter((d) => d.severity === 'error');
  add('hook configs', errors.length === 0, errors.length ? `${errors.length} error(s), first: ${errors[0].file}: ${errors[0].location.path}: ${errors[0].message}` : 'no errors', 'run loom validate and fix what it names');
  const paths = compliancePaths(project);
  if (existsSync(paths.db)) {
    const r = verifyLedger(project, { env });
    add('ledger', r.status === 'intact', r.status === 'intact' ? `intact, ${r.records} records, head seq ${r.head?.seq ?? 0}` : r.status === 'tampered' ? `TAMPERED at seq ${r.problem!.seq}: ${r.problem!.kind}` : `cannot verify: ${r.error}`, r.status === 'tampered' ? 'investigate: compare with your external checkpoints (loom verify)' : 'set LOOM_LEDGER_KEY if the ledger is keyed');
  } else add('ledger', true, 'no ledger yet (created by the first hook call)');
  const dir = env.LOOM_CHECKPOINT_DIR;
  if (dir) {
    try {
      mkdirSync(resolve(dir), { recursive: true });
      accessSync(resolve(dir), constants.W_OK);
      add('checkpoint dir', true, `${dir} writable`);
    } catch {
      add('checkpoint dir', false, `${dir} not writable`, 'create it and give the user running the hooks write access');
    }
  } else add('checkpoint dir', true, 'LOOM_CHECKPOINT_DIR not set: checkpoints only in .loom/ (set it to a place the agent cannot write)');
  const built = existsSync(join(pack, 'dist', 'runner.js')) && readdirSync(join(pack, 'handlers')).some((f) => f.endsWith('.cjs')) && statSync(join(pack, 'hooks', 'run-hook.js')).size > 0;
  add('build', built, built ? 'runner and handlers built' : 'dist/ or handlers/*.cjs missing', 'run npm ci (or npm run build)');
  return checks;
}

export async function doctorCommand(argv: string[]): Promise<number> {
  const f = parseFlags(argv, { values: ['project-dir'], booleans: ['json'] });
  const project = resolve(projectDirFrom(f));
  const checks = [...doctorChecks(project, join(__dirname, '..')), ...(await teamChecks(project))];
  const bad = checks.filter((c) => !c.ok);
  if (f.booleans.has('json')) process.stdout.write(JSON.stringify({ ok: bad.length === 0, checks }, null, 2) + '\n');
  else for (const c of checks) process.stdout.write(`${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.detail}${c.fix ? `  -> fix: ${c.fix}` : ''}\n`);
  return bad.length ? 1 : 0;
}
