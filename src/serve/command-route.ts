// `?form=command` on the hook routes: the daemon answers a hook wrapper's
// fast path with exactly what the Node runner would print and exit with
// (src/runner/main.ts), and records exactly what it would record (same
// drafts, the runner's actor, the same project). Whatever the runner would
// answer differently (a payload it refuses, an unknown hook or harness, a
// project that is not this daemon's, a different ledger key) is not
// answered here: a non-200 status sends the wrapper to the Node runner,
// which then gives its own answer and records it.
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { HookDef } from '../contract/types';
import { redactText } from '../ledger/redact-gate';
import { HARNESS_NAMES, selectAdapter } from '../protocols';
import { actorOf } from '../runner/actor';
import { usableCwd } from '../runner/project-dir';
import { finalDecision, sessionIdOf } from '../runner/record';
import { applyLedgerProblem, runHooks, selectHooks } from '../runner/run-hooks';
import { parsePayload, PayloadError } from '../runner/stdin';
import { spawnShipper, wantsShipper } from '../team/spawn-shipper';
import { commandFormBody, projectFlagOf, type WrapperPlace } from './command-form';
import type { LedgerClient } from './ledger-client';
import type { Metrics } from './metrics';

export interface CommandRouteContext {
  defs: HookDef[];
  hooksDir: string;
  registryDir: string;
  /** The daemon's project (real path): it answers for no other. */
  realProjectDir: string;
  /** Whether the daemon has a ledger key (LOOM_LEDGER_KEY): the hook process must agree. */
  keyed: boolean;
  ledger: LedgerClient;
  metrics: Metrics;
  /** Bodies larger than this are judged under the analysis budget (as every served request). */
  watchdogBytes: number;
  analysisBudgetMs: number;
}

export interface CommandReply {
  status: number;
  /** The command-form body (200) or a JSON error (the wrapper falls back). */
  body: string;
}

const refuse = (status: number, error: string): CommandReply => ({ status, body: JSON.stringify({ error, fallback: 'node' }) });

function realOrUndefined(dir: string): string | undefined {
  try {
    return realpathSync.native(dir);
  } catch {
    return undefined;
  }
}

/**
 * `gaveUp`: whether the hook stopped waiting (its copy of the payload gone, its socket closed): it has fallen back to
 * the Node runner, which answers and records the call itself, so this one records nothing (one record per call).
 */
export async function commandAnswer(ctx: CommandRouteContext, body: Buffer, pathEvent: string | undefined, query: URLSearchParams, place: WrapperPlace, gaveUp: () => boolean = () => false): Promise<CommandReply> {
  if (place.keyed !== ctx.keyed) return refuse(421, `the hook ${place.keyed ? 'has' : 'has no'} LOOM_LEDGER_KEY and this daemon ${ctx.keyed ? 'has one' : 'has none'}`);
  const harness = query.get('harness') || undefined;
  if (harness && !HARNESS_NAMES.includes(harness)) return refuse(400, `unknown harness "${harness.slice(0, 40)}"`);
  // An empty payload is the runner's to answer (on PreToolUse a block, `empty payload`): declined, as anything it answers otherwise.
  if (body.toString('utf8').replace(/^\uFEFF/, '').trim() === '') return refuse(422, 'empty payload');
  let payload: Record<string, unknown>;
  try {
    payload = parsePayload(body);
  } catch (e) {
    if (e instanceof PayloadError) return refuse(422, e.message);
    throw e;
  }
  const adapter = selectAdapter(harness, payload, pathEvent);
  const sel = selectHooks(ctx.defs, { hookId: query.get('hook') || undefined, event: pathEvent }, adapter.eventOf(payload));
  if ('error' in sel) return refuse(404, sel.error);
  const { hooks, eventName } = sel;
  if (hooks.length === 0) return { status: 200, body: commandFormBody({ stdout: '', stderr: '', exitCode: 0 }) };
  // The runner's order: the project variable, the payload's cwd, the hook's working folder.
  const projectDir = projectFlagOf(place) ?? usableCwd(payload.cwd) ?? place.cwd;
  if (!projectDir || realOrUndefined(projectDir) !== ctx.realProjectDir) return refuse(421, `project ${JSON.stringify((projectDir ?? '').slice(0, 200))} is not this daemon's`);
  const syncBudgetMs = body.length > ctx.watchdogBytes ? ctx.analysisBudgetMs : undefined;
  const r = await runHooks({ hooks, eventName, payload, adapter, projectDirFlag: projectDir, hooksDir: ctx.hooksDir, registryDir: ctx.registryDir, trustPackHandlers: true, syncBudgetMs });
  if (gaveUp()) return refuse(409, 'the hook stopped waiting and answered through the Node runner (which records the call)');
  const problem = await ctx.ledger.record({
    projectDir: r.projectDir,
    sessionId: sessionIdOf(r.payload),
    agg: r.agg,
    harness: adapter.name,
    eventName,
    hooks: hooks.map((h) => ({ id: h.id, policy: h.policy })),
    extra: { actor: actorOf(r.projectDir, r.payload) },
  }, (w) => r.agg.warnings.push(`loom: ledger: ${w}`));
  if (problem) {
    ctx.metrics.ledgerFailures++;
    process.stderr.write(`loom serve: ledger: ${eventName}: could not record: ${problem}\n`);
  }
  applyLedgerProblem(r.agg, hooks, problem, r.contract);
  ctx.metrics.decision(finalDecision(r.agg, r.contract));
  if (wantsShipper(r.contract?.name ?? eventName, r.projectDir)) spawnShipper(r.projectDir, join(ctx.hooksDir, '..'));
  const answer = adapter.render(r.agg, r.contract, eventName, r.payload);
  // As the runner prints it: reasons may quote a command or prompt, never a secret.
  const stderr = answer.stderr ? redactText(answer.stderr) : '';
  return { status: 200, body: commandFormBody({ ...answer, stderr: stderr && !stderr.endsWith('\n') ? stderr + '\n' : stderr }) };
}
