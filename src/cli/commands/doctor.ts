// loom doctor [--json]: is loom installed and working here? One line per
// check; each failing one says how to fix it. Exit 0 all good, 1 otherwise.
import { accessSync, closeSync, constants, existsSync, openSync, unlinkSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { loadPolicy } from '../../policy/policy';
import { loadRegistry } from '../../registry/load';
import { validateConfigs } from '../../validate/validate';
import { verifyLedger } from '../../ledger/verify';
import { compliancePaths } from '../../ledger/paths';
import { inspectJournalLock } from '../../ledger/journal-lock';
import { externalCheckpointDir, externalCheckpointFile, readCheckpoints } from '../../ledger/checkpoints';
import { addonProblem, probeSqlite } from '../../ledger/store';
import { target, type InstallHarness, type Scope } from '../../install/targets';
import { managedStrength } from '../../install/managed-strength';
import { managedYieldReady } from '../../runner/managed-yield';
import { parseFlags, projectDirFrom } from '../flags';
import { teamChecks } from '../../team/doctor';
import { tone } from '../output';
import { mkdirBounded } from '../../util/bounded-mkdir';
import { installHarness } from './install';

/** Harnesses whose project settings `loom install` writes (and so can say what they should hold). */
const INSTALLABLE = new Set(['claude', 'codex', 'gemini', 'cursor', 'copilot', 'qwen', 'droid', 'crush', 'opencode', 'kilo']);

/** The base URL of loom's http hooks in a settings file (installed with --mode http), if it has any. */
function httpBase(file: string): string | undefined {
  try {
    const m = /"url"\s*:\s*"(https?:\/\/[^"\s]{1,200}?)\/hooks\/[A-Za-z]+"/.exec(readFileSync(file, 'utf8').slice(0, 1 << 20));
    return m?.[1];
  } catch {
    return undefined;
  }
}

// A loom hook command in a settings file's text (JSON escapes the quote before --event).
const LOOM_IN_TEXT = /run-hook\.js(?:\\?["'])? --event /;

/** For each harness, the settings scopes whose file carries loom's hooks (managed first: it wins and cannot be switched off). */
export function activeScopes(project: string, env: NodeJS.ProcessEnv = process.env): { harness: string; scopes: { scope: Scope; file: string }[] }[] {
  const out: { harness: string; scopes: { scope: Scope; file: string }[] }[] = [];
  for (const harness of ['claude', 'codex', 'gemini', 'cursor'] as InstallHarness[]) {
    const scopes: { scope: Scope; file: string }[] = [];
    for (const scope of ['managed', 'user', 'project'] as Scope[]) {
      let file: string;
      try {
        file = target(harness, scope, project, env).file;
      } catch {
        continue; // no such scope for this harness
      }
      try {
        if (LOOM_IN_TEXT.test(readFileSync(file, 'utf8'))) scopes.push({ scope, file });
      } catch {
        // absent or unreadable: not active
      }
    }
    if (scopes.length) out.push({ harness, scopes });
  }
  return out;
}

interface Check {
  name: string;
  ok: boolean;
  /** Passes, but says something the user should know (printed as WARN; doctor still exits 0). */
  warn?: boolean;
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
    // npm rebuild works where loom is a dependency (its package ships no lock file for npm ci) and in a checkout alike.
    add('better-sqlite3', false, addonProblem(e) ?? `does not load: ${(e as Error).message.split('\n')[0]}`, `run npm rebuild better-sqlite3 in ${addonOwner(pack)} (it compiles the addon for this Node; needs a C++ toolchain when no prebuilt binary fits)`);
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
  for (const h of v.harnesses) {
    const detail = `${h.file}: loom ${h.loomWired ? 'wired' : 'not wired'}${h.disableAllHooks ? ', disableAllHooks is on' : ''}${h.skippedInPromptMode ? ', but Copilot prompt mode (copilot -p) skips this repository hook file' : ''}`;
    const fix = h.disableAllHooks ? 'set disableAllHooks to false' : !h.loomWired ? `run loom install --harness ${h.harness === 'native' ? 'claude' : h.harness}` : 'run copilot with --trust-folder, or set GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true, or loom install --harness copilot --scope user';
    add(`harness ${h.harness}`, h.loomWired && !h.disableAllHooks && !h.skippedInPromptMode, detail, fix);
    // Wired is not enough: the entries must be the ones loom writes (a PreToolUse entry removed, a command edited to
    // `exit 0; …`, a matcher narrowed to Bash, an older layout that exits 1). `loom install` would change them: say so.
    const rel = relative(resolve(project), resolve(h.file));
    if (h.loomWired && !rel.startsWith('..') && !isAbsolute(rel) && INSTALLABLE.has(h.harness)) {
      try {
        const base = httpBase(h.file);
        const r = installHarness({ harness: h.harness, scope: 'project', projectDir: project, dryRun: true, ...(base ? { mode: 'http' as const, url: base } : {}) });
        if (r.changed > 0) add(`hooks ${h.harness}`, false, `${h.file}: ${r.changed} of loom's entries are missing, edited by hand or narrowed to some tools: they do not run as loom installs them`, `run loom install --harness ${h.harness} (it puts loom's entries back and keeps your own hooks)`);
      } catch {
        // an unreadable file is named by the checks above
      }
    }
  }
  if (!v.harnesses.length) add('harnesses', false, 'no harness settings found in this project or your home', 'run loom install --harness claude|codex|gemini|cursor|opencode|kilo|copilot|qwen|droid|crush');
  for (const a of activeScopes(project, env)) {
    const where = a.scopes.map((s) => `${s.scope} (${s.file})`).join(', ');
    const m = a.scopes[0].scope === 'managed' ? managedStrength(a.harness as InstallHarness, a.scopes[0].file, project, env) : undefined;
    add(`scope ${a.harness}`, m?.ok ?? true, m ? `${where}: ${m.detail}` : where, m?.fix);
    // Managed and project (or user) settings both wired: the harness runs each event through both.
    const others = a.scopes.filter((s) => s.scope !== 'managed');
    if (a.scopes[0].scope === 'managed' && others.length) {
      const also = others.map((s) => s.file).join(' and ');
      const handled = a.harness === 'claude' && managedYieldReady(a.scopes[0].file);
      checks.push({
        name: `double hooks ${a.harness}`,
        ok: true,
        warn: true,
        detail: handled
          ? `loom is wired in both ${a.scopes[0].file} and ${also}: ${a.harness} runs every event through both; on this machine the ${others.map((s) => s.scope).join(' and ')} copy yields to the managed one, so each event is recorded once`
          : `loom is wired in both ${a.scopes[0].file} and ${also}: ${a.harness} runs every event through both, so every event is judged and recorded twice`,
        // Only Claude Code's copies know how to yield to the managed ones: elsewhere a reinstall changes nothing.
        fix: handled ? undefined : a.harness === 'claude' ? `reinstall the managed hooks (sudo loom install --harness ${a.harness} --scope managed) so the other copies yield to them, or remove loom from ${also} on this machine` : `remove loom from ${also} on this machine (loom uninstall --harness ${a.harness} --scope ${others[0].scope}); ${a.harness}'s other copies do not yield to managed hooks`,
      });
    } else if (others.length > 1) {
      // User and project settings both wired (no managed): the harness runs each event through both (finding A5).
      checks.push({
        name: `double hooks ${a.harness}`,
        ok: true,
        warn: true,
        detail: `loom is wired in both ${others.map((s) => `${s.scope} (${s.file})`).join(' and ')}: ${a.harness} runs every event through both, so every event is judged and recorded twice`,
        fix: `keep one: loom uninstall --harness ${a.harness} --scope user (or --scope project)`,
      });
    }
  }
  const errors = v.diagnostics.filter((d) => d.severity === 'error');
  add('hook configs', errors.length === 0, errors.length ? `${errors.length} error(s), first: ${errors[0].file}: ${errors[0].location.path}: ${errors[0].message}` : 'no errors', 'run loom validate and fix what it names');
  const paths = compliancePaths(project);
  if (existsSync(paths.db)) {
    const r = verifyLedger(project, { env });
    const corrupt = r.status === 'cannot-verify' && /corrupt/.test(r.error ?? '');
    const fix =
      r.problem?.kind === 'recovered-with-gaps'
        ? 'those records of the chain are only in the file loom recover set aside: read them with sqlite3 "<set-aside file>" ".recover" and keep that file with the ledger (loom verify exits 1 while the gap stands; once you accept the loss, loom recover --acknowledge "<reason>" records that in the chain)'
        : r.status === 'tampered'
        ? 'investigate: compare with your external checkpoints (loom verify)'
        : corrupt
          ? `run loom recover: it renames ledger.db aside (never deletes it), starts a new database anchored to the old chain's last good head (journal, old file, checkpoints), folds the journal (hooks kept recording there) and appends a recovery record that verify names; sqlite3 "<set-aside file>" ".recover" reads what survives of the old file`
          : /better-sqlite3|SQLite addon/.test(r.error ?? '')
            ? 'fix better-sqlite3 first (above): without the addon the ledger cannot be read'
            : /keyed|LOOM_LEDGER_KEY/.test(r.error ?? '')
              ? 'set LOOM_LEDGER_KEY (or LOOM_LEDGER_KEY_FILE) to the ledger\'s key'
              : 'run loom verify and fix what it names';
    const acked = r.acknowledged ? `; recovered-with-gaps (acknowledged seq ${r.acknowledged.seq} by ${r.acknowledged.by}: ${r.acknowledged.reason}): ${r.acknowledged.detail}` : '';
    add('ledger', r.status === 'intact', r.status === 'intact' ? `intact, ${r.records} records, head seq ${r.head?.seq ?? 0}${acked}` : r.problem?.kind === 'recovered-with-gaps' ? `recovered with gaps: ${r.problem.detail}` : r.status === 'tampered' ? `TAMPERED at seq ${r.problem!.seq}: ${r.problem!.kind}` : `cannot verify: ${r.error}`, fix);
  } else if (existsSync(join(paths.dir, 'journal.log'))) add('ledger', true, 'journal only (not folded into ledger.db yet; loom fold does it)');
  else add('ledger', true, 'no ledger yet (created by the first hook call)');
  // Can the hooks record? A read-only folder or a stuck lock blocks every PreToolUse.
  const probeDir = existsSync(paths.dir) ? paths.dir : existsSync(join(project, '.loom')) ? join(project, '.loom') : project;
  const probe = join(probeDir, `.loom-doctor-probe-${process.pid}`);
  try {
    closeSync(openSync(probe, 'wx', 0o600));
    unlinkSync(probe);
    add('ledger writable', true, `${probeDir} writable`);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    add('ledger writable', false, `${probeDir} is not writable (${code === 'ENOSPC' ? 'disk full' : code}): hooks cannot record, so every PreToolUse is blocked`, 'make the folder writable by the user running the hooks (a read-only mount, wrong owner, a full disk)');
  }
  if (existsSync(paths.dir)) {
    const lock = inspectJournalLock(paths.dir);
    if (lock.stuck) add('journal lock', false, `stuck: ${lock.stuck}`, 'run any hook or loom fold (it clears the lock at once), or remove the file');
    else add('journal lock', true, lock.held ? 'held by a live writer' : 'free');
    if (lock.asides.length) add('journal lock asides', true, `${lock.asides.length} lock file(s) that named no owner were set aside: ${lock.asides.slice(0, 3).join(', ')}`);
  }
  const dir = externalCheckpointDir(env);
  const inside = (d: string) => {
    const rel = relative(resolve(project), resolve(d));
    return !rel.startsWith('..') && !isAbsolute(rel);
  };
  if (env.LOOM_CHECKPOINT_DIR && !isAbsolute(env.LOOM_CHECKPOINT_DIR)) add('checkpoint dir', false, `LOOM_CHECKPOINT_DIR=${env.LOOM_CHECKPOINT_DIR} is not an absolute path: ignored (it would resolve inside whatever folder a hook runs in)${dir ? `; checkpoints go to ${dir}` : ''}`, 'set LOOM_CHECKPOINT_DIR to an absolute folder outside the project that the agent cannot write');
  else if (!dir) add('checkpoint dir', false, 'no state folder (HOME, XDG_STATE_HOME and LOOM_CHECKPOINT_DIR unset): checkpoints live only inside the project, where a deleted ledger takes them along', 'set LOOM_CHECKPOINT_DIR to a folder outside the project that the agent cannot write');
  else if (inside(dir)) add('checkpoint dir', false, `${dir} is inside the project: checkpoints live only inside the project`, 'set LOOM_CHECKPOINT_DIR to a folder outside the project that the agent cannot write');
  else {
    try {
      mkdirBounded(dir, 0o700);
      accessSync(dir, constants.W_OK);
      add('checkpoint dir', true, `${dir} writable (a copy of every checkpoint, outside the project)`);
      // The copies themselves: checkpoints in the project with none outside it live only where the agent writes.
      const ext = externalCheckpointFile(project, env);
      const insideCount = readCheckpoints(compliancePaths(project).checkpoints).checkpoints.length;
      if (ext && insideCount > 0 && readCheckpoints(ext).checkpoints.length === 0) add('checkpoint copies', false, `${insideCount} checkpoints in the project, none in ${ext}: they live only inside the project`, 'if nothing you know of removed them, treat the ledger as suspect and compare it with other copies (loom verify --team); the next checkpoint writes a new copy');
    } catch {
      add('checkpoint dir', false, `${dir} not writable: checkpoints live only inside the project`, 'create it and give the user running the hooks write access, or set LOOM_CHECKPOINT_DIR');
    }
  }
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
  else for (const c of checks) process.stdout.write(`${tone(!c.ok ? 'FAIL' : 'warn' in c && c.warn ? 'WARN' : 'ok  ')} ${c.name}: ${c.detail}${c.fix ? `  -> fix: ${c.fix}` : ''}\n`);
  return bad.length ? 1 : 0;
}

/** The folder whose node_modules holds the addon: the project that installed loom, or loom's own checkout. */
function addonOwner(pack: string): string {
  const parts = pack.split('/node_modules/');
  return parts.length > 1 ? parts.slice(0, -1).join('/node_modules/') : pack;
}
