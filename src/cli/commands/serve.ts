// loom serve [--port P] [--host H] [--project-dir D] [--token-file F]
// [--harness NAME] [--max-in-flight N] [--max-per-client N]: the HTTP hook endpoint.
import { realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ShutdownResult } from '../../serve/ledger-client';
import { startServer } from '../../serve/server';
import { defaultSocketPath } from '../../serve/socket-path';
import { FlagError, parseFlags } from '../flags';
import { HARNESS_NAMES } from '../../protocols';
import { fileReason } from '../../util/file-reason';
import { NotRegularError, readRegularFile } from '../../util/read-regular';
import type { TeamServe } from '../../serve/server';

/**
 * `--team-url`: the team store as the ledger (src/team/decision-store.ts). Per-client tokens are
 * required (--token-file: one "client-id token" per line); no project is looked up on this machine.
 */
async function teamServe(url: string, v: Record<string, string | undefined>, port: number): Promise<TeamServe & { clients: number }> {
  for (const k of ['project-dir', 'projects-root']) if (v[k] !== undefined) throw new FlagError(`--${k} cannot be combined with --team-url (the project comes from each payload's cwd, as the developer's path)`);
  if (!v['token-file']) throw new FlagError('--team-url needs --token-file (one "client-id token" per line): the client id is who acted');
  const budget = Number(v['team-budget-ms'] ?? 2000);
  if (!Number.isInteger(budget) || budget < 50 || budget > 60_000) throw new FlagError('--team-budget-ms: expected an integer from 50 to 60000');
  const { resolveTeamConfig } = await import('../../team/config');
  const { readClientTokens } = await import('../../team/serve-tokens');
  const { TeamDecisionStore } = await import('../../team/decision-store');
  const { loadChainKey } = await import('../../ledger/chain');
  const cfg = resolveTeamConfig(undefined, process.env, url)!;
  const tokens = readClientTokens(v['token-file']);
  const state = process.env.XDG_STATE_HOME || join(process.env.HOME || '/tmp', '.local', 'state');
  const spoolDir = resolve(v['spool-dir'] ?? join(state, 'loom', 'team-spool', `port-${port}`));
  const ledger = new TeamDecisionStore(cfg, { budgetMs: budget, spoolDir, key: loadChainKey(process.cwd()), log: (line) => process.stderr.write(line + '\n') });
  const down = await ledger.warm();
  if (down) process.stderr.write(`loom serve: team store: ${down} (requests that can block are blocked until it is back)\n`);
  return { ledger, clientOf: (t) => tokens.clientOf(t), policyDir: v['policy-dir'] ? resolve(v['policy-dir']) : undefined, clients: tokens.size };
}

export async function serveCommand(argv: string[]): Promise<number> {
  const f = parseFlags(argv, { values: ['port', 'host', 'project-dir', 'projects-root', 'token-file', 'harness', 'max-in-flight', 'max-per-client', 'config', 'request-timeout-ms', 'socket', 'team-url', 'team-budget-ms', 'spool-dir', 'policy-dir'] });
  const port = Number(f.values.port ?? process.env.LOOM_SERVE_PORT ?? 7077);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new FlagError(`--port "${f.values.port}": expected 0-65535`);
  const harness = f.values.harness ?? process.env.LOOM_HARNESS;
  if (harness && !HARNESS_NAMES.includes(harness)) throw new FlagError(`${f.values.harness ? '--harness' : 'LOOM_HARNESS'} "${harness.slice(0, 40)}": expected one of ${HARNESS_NAMES.join(', ')}`);
  const maxInFlight = Number(f.values['max-in-flight'] ?? 256);
  if (!Number.isInteger(maxInFlight) || maxInFlight < 1) throw new FlagError('--max-in-flight: expected a positive integer');
  const maxPerClient = f.values['max-per-client'] === undefined ? undefined : Number(f.values['max-per-client']);
  if (maxPerClient !== undefined && (!Number.isInteger(maxPerClient) || maxPerClient < 1)) throw new FlagError('--max-per-client: expected a positive integer');
  const timeout = Number(f.values['request-timeout-ms'] ?? 10_000);
  if (!Number.isInteger(timeout) || timeout < 100) throw new FlagError('--request-timeout-ms: expected an integer >= 100');
  const teamUrl = f.values['team-url'];
  let team: (TeamServe & { clients: number }) | undefined;
  if (teamUrl !== undefined) {
    try {
      team = await teamServe(teamUrl, f.values, port);
    } catch (e) {
      if (e instanceof FlagError) throw e;
      process.stderr.write(`loom serve: ${(e as Error).message}\n`);
      return 2;
    }
  }
  let token = team ? undefined : process.env.LOOM_SERVE_TOKEN || undefined;
  if (f.values['token-file'] && !team) {
    try {
      // A regular file of at most 64 KiB: /dev/zero or a FIFO would be read forever, and the server would never listen.
      const text = readRegularFile(f.values['token-file'], 64 * 1024);
      if (text === undefined) throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
      token = text.trim();
    } catch (e) {
      throw new FlagError(`--token-file ${f.values['token-file']}: ${e instanceof NotRegularError ? e.why : fileReason(e)}`);
    }
    if (token.length < 16) throw new FlagError(`--token-file ${f.values['token-file']}: the token must be at least 16 characters`);
  }
  const pack = join(__dirname, '..');
  const projectDir = f.values['project-dir'] ? resolve(f.values['project-dir']) : process.env.LOOM_PROJECT_DIR || undefined;
  // --socket auto: the project's default socket (what the hook wrappers try first).
  let socketPath: string | undefined = f.values.socket;
  if (socketPath === 'auto') {
    socketPath = defaultSocketPath(realpathSync.native(resolve(projectDir ?? process.cwd())));
    if (!socketPath) throw new FlagError('--socket auto: no default socket for this project (no runtime folder, or a folder name with characters other than printable ASCII); give a path or set LOOM_SOCKET');
  }
  if (socketPath !== undefined && !projectDir) throw new FlagError('--socket needs --project-dir (a daemon serves one project)');
  // The handlers go in before anything starts: a SIGTERM that arrives while the
  // server starts, or just after its "listening" line, is a clean stop, never
  // Node's default (the process killed without its shutdown checkpoint).
  let signalled: string | undefined;
  let onSignal = (sig: string) => {
    signalled ??= sig;
  };
  process.once('SIGTERM', () => onSignal('SIGTERM'));
  process.once('SIGINT', () => onSignal('SIGINT'));
  let s;
  try {
    s = await startServer({
      socketPath: socketPath ? resolve(socketPath) : undefined,
      host: f.values.host ?? '127.0.0.1',
      port,
      projectDir,
      token,
      harness: f.values.harness ?? process.env.LOOM_HARNESS,
      registryFile: resolve(f.values.config || process.env.LOOM_CONFIG || join(pack, 'config', 'hooks.json')),
      hooksDir: join(pack, 'hooks'),
      maxInFlight,
      maxPerClient,
      requestTimeoutMs: timeout,
      ledgerWorker: join(__dirname, 'ledger-worker.js'),
      projectsRoot: resolve(f.values['projects-root'] ?? process.cwd()),
      team,
    });
  } catch (e) {
    process.stderr.write(`loom serve: ${(e as Error).message}\n`);
    return 2;
  }
  process.stderr.write(`loom serve: listening on ${s.url} (POST /hooks/<event>, GET /healthz, GET /metrics)${token ? ', bearer token required' : ''}${team ? `, stateless: decisions to the team store (${team.clients} client token(s))` : ''}, pid ${process.pid}\n`);
  const result = await new Promise<ShutdownResult>((done) => {
    onSignal = (sig: string) => {
      if (signalled && signalled !== sig) return;
      signalled = sig;
      process.stderr.write(`loom serve: ${sig}: finishing requests in flight\n`);
      void s.close().then(done);
    };
    if (signalled) onSignal(signalled);
  });
  for (const p of result.problems) process.stderr.write(`loom serve: shutdown: ${p}\n`);
  // Says it wrote a checkpoint only when it did: a head that did not move since the last one needs none.
  const written = result.written.map((w) => `seq ${w.seq}${result.written.length > 1 ? ` in ${w.projectDir}` : ''}`).join(', ');
  process.stderr.write(`loom serve: stopped (${written ? `checkpoint written at ${written}` : 'no new records since the last checkpoint: none written'})\n`);
  return 0;
}
