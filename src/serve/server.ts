// loom serve: the HTTP hook endpoint (Claude Code `type: "http"` hooks,
// seed 004's enterprise harness). Same registry, handlers and adapters as
// the command runner; one warm process, one ledger writer (group commit).
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { existsSync, realpathSync, statSync, unlink } from 'node:fs';
import { dirname, isAbsolute, join, posix, relative, resolve, sep } from 'node:path';
import { contractFor, type EventContract } from '../contract/events';
import type { FailureKind, HookDef } from '../contract/types';
import { setPolicyRecheckMs } from '../policy/policy';
import { HARNESS_NAMES, selectAdapter } from '../protocols';
import { loadRegistry } from '../registry/load';
import { failedAggregate, oneLineError } from '../runner/fail-closed';
import { MAX_PAYLOAD_DEPTH, tooDeepAt } from '../runner/payload-depth';
import { projectFolderProblem } from '../runner/project-dir';
import { finalDecision, sessionIdOf } from '../runner/record';
import { applyLedgerProblem, runHooks, selectHooks } from '../runner/run-hooks';
import { probeSqlite } from '../ledger/store';
import { LedgerClient, type ShutdownResult } from './ledger-client';
import type { RecordJob } from './ledger-worker';
import { setRemoteProjects } from '../util/remote-projects';
import { actorOf } from '../runner/actor';
import { httpBody } from './http-answer';
import { commandAnswer, type CommandRouteContext } from './command-route';
import { wrapperPlace } from './command-form';
import { claimPidFile, clearStaleSocket, prepareFolder, releasePidFile, restrictSocket } from './socket-path';
import { Metrics, type Refusal } from './metrics';

export const MAX_BODY = 16 * 1024 * 1024;
/** Bodies larger than this are judged under a watchdog (the pack's handlers otherwise run without one). */
export const WATCHDOG_BYTES = 8 * 1024;
/** How long the pack's handlers may analyse a large input before it is "too large to analyse" (a block where the event can block). */
export const ANALYSIS_BUDGET_MS = 250;
/** A body that sent nothing for this long may be evicted when every slot is taken. */
const STALLED_MS = 100;
/** A policy edit reaches served decisions within this many ms. */
export const POLICY_RECHECK_MS = 250;
/** An event name the server accepts as one (anything else cannot be named). */
const EVENT_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/;
/** How often Node checks requests against the header and request timeouts (its default, 30 s, let slow headers run 3-10x past the timeout). */
export const connectionsCheckMs = (requestTimeoutMs: number): number => Math.max(25, Math.min(250, Math.floor(requestTimeoutMs / 10)));

export interface ServeOptions {
  host: string;
  port: number;
  projectDir?: string;
  token?: string;
  harness?: string;
  registryFile: string;
  hooksDir: string;
  maxInFlight: number;
  /** Requests one client (remote address, with or without the token) may have in flight; default a quarter of maxInFlight. */
  maxPerClient?: number;
  /** Body read and request timeouts, ms. */
  requestTimeoutMs: number;
  /** The bundled ledger worker (dist/ledger-worker.js). */
  ledgerWorker: string;
  /** Without projectDir, a payload's cwd must lie under this folder (a client cannot make loom write elsewhere). */
  projectsRoot: string;
  /** How long a loaded policy is trusted before its files are looked at again (default 250 ms). */
  policyRecheckMs?: number;
  /** Listen on this Unix socket (mode 0600, in a folder only the user may write) instead of host:port (`loom serve --socket`, `loom daemon`). */
  socketPath?: string;
  /** `--team-url`: stateless; decisions go to the team store, a project is the payload's path on the developer's machine. */
  team?: TeamServe;
}

/** The team server's ledger (src/team/decision-store.ts) and its per-client tokens. */
export interface TeamServe {
  ledger: {
    record(job: RecordJob): Promise<string | undefined>;
    /** The answer given after record() failed: kept locally until the store takes it. */
    spool(job: RecordJob): Promise<string | undefined>;
    problem(): string | undefined;
    headSeq(): number;
    shutdown(): Promise<ShutdownResult>;
  };
  /** The client id a bearer token belongs to (constant-time), or undefined. */
  clientOf(token: string): string | undefined;
  /** The folder whose .loom/policy.json is the team's policy; undefined: the pack's defaults. */
  policyDir?: string;
}

/** A payload's cwd as the developer's path: checked as a string, never looked up on this machine. */
export function remoteProjectOf(p: Record<string, unknown>): string {
  const raw = p.cwd;
  const shown = JSON.stringify(typeof raw === 'string' ? raw.slice(0, 200) : raw === undefined ? '' : typeof raw);
  if (typeof raw !== 'string' || !raw.startsWith('/') || raw.length > 4096 || /[\u0000-\u001f\u007f]/.test(raw)) throw new HttpError(400, `cwd ${shown} is not an absolute path (the project on the developer's machine)`, {}, 'payload', 'payload');
  const norm = posix.normalize(raw);
  return norm.length > 1 && norm.endsWith('/') ? norm.slice(0, -1) : norm;
}

const CLIENT_HEADERS: [string, string][] = [
  ['third-party-user-id', 'third_party_user_id'],
  ['turn-id', 'turn_id'],
  ['app-version', 'app_version'],
];

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
    /** The request was understood but its payload could not be judged: on an event that can block, that is a block (200), not this status. */
    readonly unjudged?: FailureKind,
    /** What was refused, counted in /metrics (loom_refusals_total). */
    readonly refusal?: Refusal,
  ) {
    super(message);
  }
}

/** A body that arrives too slowly; reaped when every slot is taken. */
/** A request's place among those in flight; released once (an evicted request's slot passes to its evictor). */
interface Slot {
  /** The client: remote address and whether it showed the token. */
  client: string;
  released: boolean;
  /** Admission order: a waiting request may evict only bodies admitted before it arrived. */
  order?: number;
}

interface Reader {
  lastData: number;
  /** The slot of the request reading this body. */
  slot: Slot;
  evict(): void;
}

/** What a request revealed before it failed (for a fail-closed answer). */
interface RequestState {
  /** Its place among the requests in flight (per-client quota). */
  slot?: Slot;
  /** The team server's client (from its token). */
  clientId?: string;
  event?: string;
  /** The body's hook_event_name, when it has one (the block is rendered for it when the route's event cannot be named). */
  bodyEvent?: string;
  /** No valid bearer token: nothing is judged or recorded; a block on an event that can block, else 401. */
  unauthenticated?: boolean;
  payload?: Record<string, unknown>;
  projectDir?: string;
  harness?: string;
  /** `?form=command`: a hook wrapper's fast path; every answer it cannot give as the runner would is a non-200 (the wrapper runs Node). */
  command?: boolean;
}

function digest(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

function readBody(req: IncomingMessage, limit: number, timeoutMs: number, readers: Set<Reader>, slot: Slot): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) return reject(new HttpError(413, `body of ${declared} bytes is over the ${limit}-byte limit`, {}, 'payload'));
    const chunks: Buffer[] = [];
    let size = 0;
    const reader: Reader = {
      lastData: Date.now(),
      slot,
      evict: () => {
        clearTimeout(timer);
        readers.delete(reader);
        reject(new HttpError(408, `the request body stalled while other requests waited for a slot`, { connection: 'close' }));
      },
    };
    readers.add(reader);
    const timer = setTimeout(() => {
      readers.delete(reader);
      reject(new HttpError(408, `the request body did not arrive within ${timeoutMs} ms`, { connection: 'close' }));
    }, timeoutMs);
    req.on('data', (c: Buffer) => {
      reader.lastData = Date.now();
      size += c.length;
      if (size > limit) {
        clearTimeout(timer);
        readers.delete(reader);
        reject(new HttpError(413, `body is over the ${limit}-byte limit`, {}, 'payload'));
        req.removeAllListeners('data');
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      clearTimeout(timer);
      readers.delete(reader);
      resolve(Buffer.concat(chunks, size));
    });
    req.on('error', (e) => {
      clearTimeout(timer);
      readers.delete(reader);
      reject(e);
    });
  });
}

export interface LoomServer {
  server: Server;
  url: string;
  /** Stops: requests in flight finish, the last batch commits, a checkpoint is written where the head moved. */
  close(): Promise<ShutdownResult>;
}

/** What a team server records beside the decision: the client (its token's id) and the project as the developer's path. */
function teamExtra(clientId: string, projectPath: string | undefined, client: Record<string, string>): Record<string, unknown> {
  const actor: Record<string, unknown> = { client_id: clientId, via: 'loom serve --team-url', authenticated: 'client token' };
  if (client.third_party_user_id) actor.client_user = client.third_party_user_id;
  if (client.app_version) actor.harness_version = client.app_version;
  return { ...(Object.keys(client).length ? { client } : {}), actor, project_path: projectPath ?? null };
}

export async function startServer(o: ServeOptions): Promise<LoomServer> {
  if (!o.socketPath && !isLoopback(o.host) && !o.token && !o.team) throw new Error(`refusing to listen on ${o.host} without a token: set LOOM_SERVE_TOKEN or --token-file, or bind 127.0.0.1`);
  // The ledger's folding needs SQLite: a server that cannot load it fails now, not at the first request.
  try {
    probeSqlite();
  } catch (e) {
    throw new Error(`cannot load better-sqlite3 (the ledger database): ${(e as Error).message.split('\n')[0]}`);
  }
  // A projects root that is not an existing folder would refuse every request: fail now, in one line.
  if (!o.team && !o.projectDir) {
    let problem: string | undefined;
    try {
      if (!statSync(o.projectsRoot).isDirectory()) problem = 'is not a folder';
    } catch (e) {
      problem = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : oneLineError(e);
    }
    if (problem) throw new Error(`--projects-root ${o.projectsRoot} ${problem} (give an existing folder, or --project-dir)`);
  }
  const defs: HookDef[] = loadRegistry(o.registryFile);
  setPolicyRecheckMs(o.policyRecheckMs ?? POLICY_RECHECK_MS);
  const registryDir = join(o.registryFile, '..');
  const team = o.team;
  if (team) setRemoteProjects({ policyDir: team.policyDir });
  const ledger = team
    ? { record: (job: RecordJob) => team.ledger.record(job), headSeq: () => team.ledger.headSeq(), shutdown: (_reason: string) => team.ledger.shutdown(), corrupt: new Map<string, string>() }
    : new LedgerClient(o.ledgerWorker);
  if (!team && o.projectDir && existsSync(join(o.projectDir, '.loom', 'compliance'))) (ledger as LedgerClient).catchUp(o.projectDir);
  // The registry is fixed for the server's life: each event's hooks are selected once.
  const selections = new Map<string, { hooks: HookDef[]; recorded: Pick<HookDef, 'id' | 'policy'>[] }>();
  const hooksFor = (eventName: string) => {
    let s = selections.get(eventName);
    if (!s) {
      const sel = selectHooks(defs, { event: eventName }, eventName);
      const hooks = 'error' in sel ? [] : sel.hooks;
      s = { hooks, recorded: hooks.map((h) => ({ id: h.id, policy: h.policy })) };
      if (selections.size < 256) selections.set(eventName, s);
    }
    return s;
  };
  const metrics = new Metrics();
  /** Events the registry has hooks for (a custom event is named by the registry that lists it). */
  const registryEvents = new Set(defs.flatMap((d) => d.events));
  /** An event loom can name: a harness contract knows it, or the registry has hooks for it (own keys: Map and Set lookups only). */
  const named = (e: string | undefined): e is string => e !== undefined && EVENT_NAME.test(e) && (contractFor(e) !== undefined || registryEvents.has(e));
  /** Whether a refusal on this event must be the harness's block: an event that can block, or one loom cannot name (as in the runner). */
  const mustBlock = (e: string | undefined): boolean => !named(e) || (contractFor(e)?.canBlock ?? true);
  let commandCtx: CommandRouteContext | undefined;
  const commandContext = (): CommandRouteContext => {
    if (commandCtx) return commandCtx;
    if (!o.projectDir || team) throw new HttpError(400, 'the command form needs a server started for one project (--project-dir)');
    commandCtx = {
      defs,
      hooksDir: o.hooksDir,
      registryDir,
      realProjectDir: realpathSync.native(o.projectDir),
      keyed: !!(process.env.LOOM_LEDGER_KEY || process.env.LOOM_LEDGER_KEY_FILE),
      ledger: ledger as LedgerClient,
      metrics,
      watchdogBytes: WATCHDOG_BYTES,
      analysisBudgetMs: ANALYSIS_BUDGET_MS,
    };
    return commandCtx;
  };
  const tokenDigest = o.token ? digest(o.token) : undefined;
  const bearer = (req: IncomingMessage): string => {
    const auth = req.headers.authorization ?? '';
    return auth.startsWith('Bearer ') ? auth.slice(7) : '';
  };
  /** The team server's client for a request, or undefined. */
  const clientOf = (req: IncomingMessage): string | undefined => {
    const given = bearer(req);
    return given && team ? team.clientOf(given) : undefined;
  };
  const authorized = (req: IncomingMessage): boolean => {
    const given = bearer(req);
    if (team) return clientOf(req) !== undefined;
    return given !== '' && tokenDigest !== undefined && timingSafeEqual(digest(given), tokenDigest);
  };
  const needsAuth = Boolean(tokenDigest || team);
  const readers = new Set<Reader>();
  /** Sockets with a request in progress: never reaped as idle. */
  const busy = new Set<Socket>();
  const perClient = new Map<string, number>();
  let admitted = 0;
  const clientQuota = Math.max(1, o.maxPerClient ?? Math.ceil(o.maxInFlight / 4));
  let inFlight = 0;
  let closing = false;
  /** The last ledger write's failure, until a write succeeds again: /healthz is not ok meanwhile. */
  let ledgerProblem: string | undefined;
  /** Ledger warnings already logged (project and text): said once on stderr, in every answer. */
  const warnedProjects = new Set<string>();

  const write = (res: ServerResponse, route: string, status: number, type: string, text: string, headers: Record<string, string> = {}) => {
    // While shutting down, every answer closes its connection so the server can stop at once.
    res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text), ...(closing ? { connection: 'close' } : {}), ...headers });
    res.end(text);
    metrics.request(route, status);
  };
  const sendJson = (res: ServerResponse, route: string, status: number, json: string) => write(res, route, status, 'application/json', json);
  /** A string body is Prometheus text; anything else goes as JSON. */
  const send = (res: ServerResponse, route: string, status: number, body: unknown, headers: Record<string, string> = {}) =>
    typeof body === 'string' ? write(res, route, status, 'text/plain; version=0.0.4', body, headers) : write(res, route, status, 'application/json', JSON.stringify(body), headers);

  /** Where a payload's records go: the server's project, or the payload's cwd jailed under the projects root (real paths). */
  const realRoot = (() => {
    try {
      return realpathSync.native(o.projectsRoot);
    } catch {
      return resolve(o.projectsRoot);
    }
  })();
  function jailedProject(p: Record<string, unknown>): string {
    const raw = p.cwd;
    const shown = JSON.stringify(typeof raw === 'string' ? raw.slice(0, 200) : raw === undefined ? '' : typeof raw);
    const hint = '(start loom serve with --project-dir or --projects-root)';
    if (typeof raw !== 'string' || raw === '' || raw.includes('\0') || !isAbsolute(raw)) throw new HttpError(400, `cwd ${shown} is not an absolute path under the projects root ${o.projectsRoot} ${hint}`, {}, 'payload', 'projects-root');
    // Resolved to its real path before the check: a symlink under the root that points outside is outside.
    const problem = projectFolderProblem(raw);
    if (problem) throw new HttpError(400, `cwd ${shown}: ${problem.replace(/^project folder \S+ /, '')} ${hint}`, {}, 'payload', 'projects-root');
    const real = realpathSync.native(raw);
    const rel = relative(realRoot, real);
    if (rel.startsWith('..' + sep) || rel === '..' || isAbsolute(rel)) throw new HttpError(400, `cwd ${shown} is not under the projects root ${o.projectsRoot} ${hint}`, {}, 'payload', 'projects-root');
    return real;
  }

  /**
   * The event a block is rendered for: the route's (or body's) event when it can block; when the route's
   * event cannot be named, the body's hook_event_name if that one can block (Claude Code reads a PreToolUse
   * deny only with its own event name); else the generic block (`decision: "block"`).
   */
  function blockTarget(st: RequestState): { name: string; contract?: EventContract } {
    for (const e of [st.event, st.bodyEvent]) {
      const c = e !== undefined ? contractFor(e) : undefined;
      if (c?.canBlock) return { name: e!, contract: c };
    }
    return { name: recordedName(st) };
  }
  /** The event a refusal is recorded under: what was sent when it is a valid name, else `unknown`. */
  const recordedName = (st: RequestState): string => (st.event !== undefined && EVENT_NAME.test(st.event) ? st.event : st.event === undefined && st.bodyEvent !== undefined && EVENT_NAME.test(st.bodyEvent) ? st.bodyEvent : 'unknown');

  /**
   * The answer to a request loom could not judge, on an event that can block (or one it cannot name): that
   * harness's block, recorded when a project is known, never for an unauthenticated request (`record: false`).
   */
  async function unjudgedBlock(res: ServerResponse, st: RequestState, query: URLSearchParams, kind: FailureKind, reason: string, opts: { record?: boolean; headers?: Record<string, string> } = {}): Promise<void> {
    const eventName = recordedName(st);
    const target = blockTarget(st);
    const adapter = selectAdapter(query.get('harness') ?? o.harness, st.payload ?? {}, target.name);
    const sel = hooksFor(eventName);
    // No hook of the registry for the event (one loom cannot name): the record names the server itself.
    const agg = failedAggregate(eventName, sel.hooks.length ? sel.hooks : [{ id: 'loom-serve' } as HookDef], kind, reason);
    const projectDir = st.projectDir ?? o.projectDir;
    if (opts.record !== false && !st.unauthenticated && (projectDir || (team && st.clientId))) {
      const recorded = sel.recorded.length ? sel.recorded : [{ id: 'loom-serve', policy: {} }];
      const job: RecordJob = { projectDir: projectDir ?? '', sessionId: st.payload ? sessionIdOf(st.payload) : '', agg, harness: adapter.name, eventName, hooks: recorded, clientId: st.clientId, ...(team ? { extra: teamExtra(st.clientId!, st.projectDir, {}) } : {}) };
      const problem = await ledger.record(job);
      if (problem) {
        agg.reasons.push(`ledger: ${problem}`);
        const lost = team ? await team.ledger.spool(job) : undefined;
        if (lost) agg.reasons.push(lost);
      }
    }
    metrics.decision(target.contract ? finalDecision(agg, target.contract) : 'deny');
    let answer = adapter.render(agg, target.contract, target.name, st.payload);
    // An event with no contract renders as an error (exit 1): here it counts as one that can block.
    if (!target.contract && answer.exitCode !== 2) answer = { exitCode: 2, stdout: '', stderr: `loom: ${agg.reasons.join('; ')}\n` };
    write(res, '/hooks', 200, 'application/json', JSON.stringify(httpBody(answer, target.contract, target.name)), opts.headers);
  }

  async function handleHook(req: IncomingMessage, res: ServerResponse, pathEvent: string | undefined, query: URLSearchParams, st: RequestState): Promise<void> {
    const started = process.hrtime.bigint();
    const unauthenticated = () => new HttpError(401, 'unauthenticated: missing or wrong bearer token in the Authorization header', { 'www-authenticate': 'Bearer' }, undefined, 'unauthenticated');
    if (pathEvent !== undefined) st.event = pathEvent;
    if (needsAuth && !authorized(req)) {
      st.unauthenticated = true;
      // The route names the event (or the command form, whose caller runs Node on any non-200): nothing more to read.
      if (pathEvent !== undefined || st.command) throw unauthenticated();
    }
    if (team && !st.unauthenticated) st.clientId = clientOf(req);
    // Refusals of the request's form wait for its body: on an event that can block they are a block (200), recorded where the project is known.
    let refusal: HttpError | undefined;
    const client: Record<string, string> = {};
    for (const [h, field] of CLIENT_HEADERS) {
      const v = req.headers[h];
      if (v === undefined) continue;
      const s = Array.isArray(v) ? v.join(',') : v;
      if (s.length > 256 || !/^[\x20-\x7e]*$/.test(s)) refusal ??= new HttpError(400, `header ${h}: at most 256 printable ASCII characters`, {}, 'payload', 'header');
      else client[field] = s;
    }
    const type = String(req.headers['content-type'] ?? '');
    if (!/^application\/(?:[\w.+-]+\+)?json(?:\s*;.*)?$/i.test(type)) refusal ??= new HttpError(415, `content-type must be application/json (got ${JSON.stringify(type.slice(0, 100) || 'none')})`, {}, 'payload', 'content-type');
    if (st.command && refusal) throw refusal;
    const body = await readBody(req, MAX_BODY, o.requestTimeoutMs, readers, st.slot ?? { client: '', released: true });
    if (st.command) {
      // The wrapper's copy of the payload beside the socket: it removes it when it stops waiting (and falls back to Node).
      const spoolHeader = req.headers['x-loom-spool'];
      const spoolFile = o.socketPath && typeof spoolHeader === 'string' && /^in\.[0-9]{1,10}$/.test(spoolHeader) ? join(dirname(o.socketPath), spoolHeader) : undefined;
      const gaveUp = () => req.socket.destroyed || (spoolFile !== undefined && !existsSync(spoolFile));
      const a = await commandAnswer(commandContext(), body, pathEvent, query, wrapperPlace(req.headers), gaveUp);
      write(res, '/hooks', a.status, a.status === 200 ? 'text/plain; charset=utf-8' : 'application/json', a.body);
      if (a.status === 200) {
        metrics.latency(Number(process.hrtime.bigint() - started) / 1e9);
        // The wrapper's copy of the payload, beside the socket: answered, so it is no longer needed (saves the wrapper an rm).
        const spool = req.headers['x-loom-spool'];
        if (o.socketPath && typeof spool === 'string' && /^in\.[0-9]{1,10}$/.test(spool)) unlink(join(dirname(o.socketPath), spool), () => undefined);
      }
      return;
    }
    let payload: unknown;
    try {
      // White space only is an empty payload, as in the runner (judged below: a block on PreToolUse).
      const text = body.toString('utf8').replace(/^\uFEFF/, '');
      payload = text.trim() ? JSON.parse(text) : {};
    } catch (e) {
      if (st.unauthenticated) throw unauthenticated();
      throw refusal ?? new HttpError(400, `body is not valid JSON: ${(e as Error).message}`, {}, 'payload', 'payload');
    }
    if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
      if (st.unauthenticated) throw unauthenticated();
      throw refusal ?? new HttpError(400, 'body must be one JSON object', {}, 'payload', 'payload');
    }
    const p = payload as Record<string, unknown>;
    if (typeof p.hook_event_name === 'string') st.bodyEvent = p.hook_event_name;
    const eventName = pathEvent ?? st.bodyEvent;
    st.event = eventName;
    // The route and the body naming two events, one of which can block (a PreToolUse posted to /hooks/PostToolUse):
    // which one the harness meant is unknown, so it is the one that can block, refused, as the runner refuses it.
    const canon = (e: string | undefined) => (e === undefined ? undefined : contractFor(e)?.name ?? e);
    // (A route loom cannot name gives way to the body's event, judged as that event.)
    if (pathEvent !== undefined && st.bodyEvent !== undefined && named(pathEvent) && named(st.bodyEvent) && canon(pathEvent) !== canon(st.bodyEvent) && (mustBlock(pathEvent) || mustBlock(st.bodyEvent))) {
      st.event = mustBlock(pathEvent) ? pathEvent : st.bodyEvent;
      if (!st.unauthenticated) throw new HttpError(400, `the route names ${JSON.stringify(pathEvent.slice(0, 40))} and the body's hook_event_name ${JSON.stringify(st.bodyEvent.slice(0, 40))}: which event this is cannot be told, refused`, {}, 'payload', 'payload');
    }
    // Now the event is known (or cannot be named): a block where it can block, else 401. Nothing is judged or recorded.
    if (st.unauthenticated) throw unauthenticated();
    // The project first: a refusal below is recorded there (jailed: only under the projects root).
    const projectDir = team ? remoteProjectOf(p) : o.projectDir ?? jailedProject(p);
    st.projectDir = projectDir;
    const deep = tooDeepAt(p);
    if (deep) throw new HttpError(400, `body nests deeper than ${MAX_PAYLOAD_DEPTH} levels (at ${deep})`, {}, 'payload', 'payload');
    st.payload = p;
    if (refusal) throw refusal;
    if (!eventName) throw new HttpError(400, 'no event: POST /hooks/<event> or send hook_event_name in the body', {}, 'payload', 'unknown-event');
    if (!EVENT_NAME.test(eventName)) throw new HttpError(400, `event name ${JSON.stringify(eventName.slice(0, 80))} is not valid`, {}, 'payload', 'unknown-event');
    // An event loom cannot name counts as one that can block (as in the runner): nothing here could judge it.
    if (!named(eventName)) throw new HttpError(400, `event ${JSON.stringify(eventName)} is not one loom knows: refused (an event loom cannot name counts as one that can block)`, {}, 'payload', 'unknown-event');
    // An unknown ?harness= is a bad argument, as --harness is to the runner: refused (a block where the event can block).
    const askedHarness = query.get('harness');
    if (askedHarness !== null && askedHarness !== 'auto' && !HARNESS_NAMES.includes(askedHarness)) throw new HttpError(400, `unknown harness ${JSON.stringify(askedHarness.slice(0, 40))} in ?harness= (known: ${HARNESS_NAMES.join(', ')})`, {}, 'payload', 'payload');
    // A tool call with no payload cannot be judged: on PreToolUse that is a block, as in the runner.
    if (body.toString('utf8').replace(/^\uFEFF/, '').trim() === '' && contractFor(eventName)?.name === 'PreToolUse') throw new HttpError(400, 'empty payload: the body held no tool call to judge', {}, 'payload', 'payload');
    if (p.hook_event_name === undefined) p.hook_event_name = eventName;
    const adapter = selectAdapter(query.get('harness') ?? o.harness, p, eventName);
    const sel = hooksFor(eventName);
    if (sel.hooks.length === 0) {
      metrics.decision('allow');
      send(res, '/hooks', 200, {});
      return;
    }
    const syncBudgetMs = body.length > WATCHDOG_BYTES ? ANALYSIS_BUDGET_MS : undefined;
    const r = await runHooks({ hooks: sel.hooks, eventName, payload: p, adapter, projectDirFlag: projectDir, hooksDir: o.hooksDir, registryDir, trustPackHandlers: true, syncBudgetMs });
    // Who acted: the harness's user id (Third-Party-User-Id) and version when sent; else the token holder; the host is the server's.
    let extra: Record<string, unknown>;
    if (team) extra = teamExtra(st.clientId!, r.projectDir, client);
    else {
      const actor: Record<string, unknown> = { ...actorOf(r.projectDir, r.payload), via: 'loom serve', authenticated: tokenDigest ? 'bearer token' : 'none (loopback)' };
      if (client.third_party_user_id) actor.client_user = client.third_party_user_id;
      if (client.app_version) actor.harness_version = client.app_version;
      extra = Object.keys(client).length ? { client, actor } : { actor };
    }
    const job: RecordJob = { projectDir: r.projectDir, sessionId: sessionIdOf(r.payload), agg: r.agg, harness: adapter.name, eventName, hooks: sel.recorded, extra, clientId: st.clientId };
    let warned: string | undefined;
    const recorded = ledger.record(job, (w) => (warned = w));
    // Rendered while the commit runs, so an answer leaves as soon as its record is durable.
    const answer = () => JSON.stringify(httpBody(adapter.render(r.agg, r.contract, eventName, r.payload), r.contract, eventName));
    let text = answer();
    // The answer waits for the record to be durable: a crash loses no acknowledged record.
    const problem = await recorded;
    if (warned) {
      // Stored, with something to say (a plain ledger under a key): a warning in the answer and, once per project, on stderr.
      r.agg.warnings.push(`loom: ledger: ${warned}`);
      if (!warnedProjects.has(`${r.projectDir}\0${warned}`)) {
        warnedProjects.add(`${r.projectDir}\0${warned}`);
        process.stderr.write(`loom serve: ledger: warning: ${warned}\n`);
      }
      text = answer();
    }
    if (problem) {
      // Said three ways: the answer (a block on events that can block), a stderr line, and /metrics and /healthz.
      metrics.ledgerFailures++;
      ledgerProblem = problem;
      process.stderr.write(`loom serve: ledger: ${eventName}: could not record: ${problem}\n`);
      applyLedgerProblem(r.agg, sel.hooks, problem, r.contract);
      // The team store failed: the answer now given (a block where the event can block) waits in the local spool.
      const lost = team ? await team.ledger.spool(job) : undefined;
      if (lost) r.agg.reasons.push(lost);
      text = answer();
    } else ledgerProblem = undefined;
    metrics.decision(finalDecision(r.agg, r.contract));
    sendJson(res, '/hooks', 200, text);
    metrics.latency(Number(process.hrtime.bigint() - started) / 1e9);
  }

  // No Host header is no reason to refuse: loom routes by path, and Node's own 400 for it would bypass the block below.
  // Slow headers get Node's 408 within the request timeout: it checks the header and request timeouts every
  // connectionsCheckingInterval (default 30 s, which let a client trickling one header every 0.5 s hold a
  // socket for 3-10x the timeout). Bodies have their own 408 (readBody); the whole request at most twice the timeout.
  const server = createServer({ requireHostHeader: false, headersTimeout: o.requestTimeoutMs, requestTimeout: o.requestTimeoutMs * 2, connectionsCheckingInterval: connectionsCheckMs(o.requestTimeoutMs) }, (req, res) => {
    // Most requests have no query string: skip building a URL object for them.
    const raw = req.url ?? '/';
    const q = raw.indexOf('?');
    let path: string;
    try {
      path = raw.startsWith('/') ? (q < 0 ? raw : raw.slice(0, q)) : new URL(raw, 'http://loom.invalid').pathname;
    } catch {
      return send(res, 'other', 400, { error: `request target ${JSON.stringify(raw.slice(0, 200))} is not a URL` });
    }
    const query = new URLSearchParams(q < 0 ? '' : raw.slice(q + 1));
    if (req.method === 'GET' && path === '/healthz') {
      const failing = team ? team.ledger.problem() : ledgerProblem;
      if (failing && !closing) return send(res, path, 503, { status: team ? 'team-store-failing' : 'ledger-failing', error: failing });
      // Decisions are still recorded (the journal), but the database cannot take them until loom recover: not ok.
      const corrupt = ledger.corrupt.values().next();
      if (!corrupt.done && !closing) return send(res, path, 503, { status: 'ledger-corrupt', error: corrupt.value, projects: ledger.corrupt.size });
      return send(res, path, 200, { status: closing ? 'closing' : 'ok' });
    }
    if (req.method === 'GET' && path === '/metrics') {
      if (needsAuth && !authorized(req)) return send(res, path, 401, { error: 'missing or wrong bearer token in the Authorization header' }, { 'www-authenticate': 'Bearer' });
      return send(res, path, 200, metrics.render(inFlight, ledger.headSeq(), ledger.corrupt.size));
    }
    const m = /^\/hooks(?:\/([^/]+))?\/?$/.exec(path);
    // Unknown paths share one metrics label: a client must not grow the label set (or inject into it).
    if (!m) return send(res, 'other', 404, { error: `no route ${req.method} ${path.slice(0, 200)}` });
    if (req.method !== 'POST') return send(res, '/hooks', 405, { error: 'use POST' }, { allow: 'POST' });
    if (closing) {
      // A request on a kept-alive socket while the server stops: on an event that can block, the harness's block,
      // never a 503 it would read as "no decision"; elsewhere the 503 and Retry-After.
      let event: string | undefined;
      try {
        event = m[1] ? decodeURIComponent(m[1]) : undefined;
      } catch {
        event = '\u0000';
      }
      if (query.get('form') !== 'command' && mustBlock(event)) {
        req.resume();
        return void unjudgedBlock(res, { event }, query, 'internal', 'loom serve is shutting down: blocked; retry when it is back', { record: false, headers: { connection: 'close' } }).catch(() => send(res, '/hooks', 200, { decision: 'block', reason: 'loom serve is shutting down: blocked' }, { connection: 'close' }));
      }
      return send(res, '/hooks', 503, { error: 'shutting down' }, { 'retry-after': '1', connection: 'close' });
    }
    const client = `${req.socket.remoteAddress ?? '?'}|${team ? clientOf(req) ?? 'anonymous' : tokenDigest && authorized(req) ? 'token' : 'anonymous'}`;
    busy.add(req.socket);
    res.once('close', () => busy.delete(req.socket));
    void admit(client).then((refused) => {
      if (typeof refused !== 'string') return hook(req, res, m, query, refused);
      const command = query.get('form') === 'command';
      let event: string | undefined;
      try {
        event = m[1] ? decodeURIComponent(m[1]) : undefined;
      } catch {
        event = '\u0000';
      }
      // No slot: on an event the route names that can block (or cannot be named), a block the harness understands (200), never a 4xx/5xx it would let through.
      const blocks = !command && event !== undefined && mustBlock(event);
      if (needsAuth && !authorized(req)) {
        metrics.refused('unauthenticated');
        const reason = 'unauthenticated: missing or wrong bearer token in the Authorization header';
        if (!blocks) return send(res, '/hooks', 401, { error: reason }, { 'www-authenticate': 'Bearer' });
        req.resume();
        return void unjudgedBlock(res, { event, unauthenticated: true }, query, 'payload', reason, { record: false, headers: { 'www-authenticate': 'Bearer' } }).catch(() => send(res, '/hooks', 200, { decision: 'block', reason }));
      }
      metrics.refused('overloaded');
      // The command form's caller runs the Node runner on any non-200.
      if (command) return send(res, '/hooks', 503, { error: refused }, { 'retry-after': '1' });
      if (blocks) {
        req.resume();
        return void unjudgedBlock(res, { event, clientId: clientOf(req) }, query, 'timeout', `loom serve is overloaded: ${refused}`).catch(() => send(res, '/hooks', 200, { decision: 'block', reason: `loom serve is overloaded: ${refused}` }));
      }
      send(res, '/hooks', 503, { error: refused }, { 'retry-after': '1' });
    });
  });

  /**
   * A slot for a request: within the client's quota and the server's limit.
   * When either is full, the body that stalled longest (of that client, when
   * its quota is the limit) makes room with a 408; else the request waits a
   * moment (a slow machine is not a stalled client). A waiting request may
   * evict only bodies admitted before it arrived: stalled waiters cannot
   * keep evicting each other's successors and starve a live request that
   * arrives after them.
   * Resolves with the refusal, or undefined once the slot is taken.
   */
  async function admit(client: string): Promise<Slot | string> {
    const deadline = Date.now() + Math.min(o.requestTimeoutMs, 2000);
    const ticket = admitted;
    for (;;) {
      const mine = perClient.get(client) ?? 0;
      const overClient = mine >= clientQuota;
      const room = !overClient && inFlight < o.maxInFlight;
      const evicted = room ? undefined : evictStalledReader(overClient ? client : undefined, ticket);
      if (room || evicted) {
        // An evicted request's slot passes to this one at once: waiters cannot take it first.
        if (evicted) release(evicted);
        inFlight++;
        perClient.set(client, (perClient.get(client) ?? 0) + 1);
        return { client, released: false, order: ++admitted };
      }
      if (Date.now() >= deadline || closing) return overClient ? `this client already has ${clientQuota} requests in flight` : `more than ${o.maxInFlight} requests in flight`;
      await new Promise((r) => setTimeout(r, STALLED_MS / 4));
    }
  }

  function release(slot: Slot): void {
    if (slot.released) return;
    slot.released = true;
    inFlight--;
    const n = (perClient.get(slot.client) ?? 1) - 1;
    if (n > 0) perClient.set(slot.client, n);
    else perClient.delete(slot.client);
  }

  function hook(req: IncomingMessage, res: ServerResponse, m: RegExpExecArray, query: URLSearchParams, slot: Slot): void {
    let event: string | undefined;
    try {
      event = m[1] ? decodeURIComponent(m[1]) : undefined;
    } catch {
      event = '\u0000';
    }
    const st: RequestState = { slot, command: query.get('form') === 'command' };
    handleHook(req, res, event, query, st)
      .catch(async (e: unknown) => {
        if (res.headersSent) return;
        if (e instanceof HttpError && e.refusal) metrics.refused(e.refusal);
        const unjudged = e instanceof HttpError ? e.unjudged : 'internal';
        // Unauthenticated: nothing judged, nothing recorded (no ledger write for a client without the token), counted in /metrics.
        // On an event that can block (or one loom cannot name) the harness's block, saying only "unauthenticated"; else 401.
        if (st.unauthenticated && e instanceof HttpError && e.status === 401) {
          req.resume();
          if (!st.command && mustBlock(st.event)) return void unjudgedBlock(res, st, query, 'payload', e.message, { record: false, headers: e.headers }).catch(() => send(res, '/hooks', 200, { decision: 'block', reason: e.message }));
          return send(res, '/hooks', 401, { error: e.message }, e.headers);
        }
        // Never a 4xx/5xx for a call loom could not judge on an event that can block (or cannot name): the harness would let it run.
        if (unjudged && !st.command && mustBlock(st.event)) {
          const reason = e instanceof HttpError ? e.message : `internal error: ${oneLineError(e)}`;
          try {
            return await unjudgedBlock(res, st, query, unjudged, reason);
          } catch (e2) {
            if (res.headersSent) return;
            return send(res, '/hooks', 200, { decision: 'block', reason: `${reason} (and answering failed: ${oneLineError(e2)})` });
          }
        }
        if (e instanceof HttpError) send(res, '/hooks', e.status, { error: e.message }, e.headers);
        else send(res, '/hooks', 500, { error: `internal error: ${oneLineError(e)}` });
      })
      .finally(() => release(slot));
  }
  function evictStalledReader(client?: string, before = Infinity): Slot | undefined {
    let oldest: Reader | undefined;
    for (const r of readers) if ((client === undefined || r.slot.client === client) && (r.slot.order ?? 0) <= before && (!oldest || r.lastData < oldest.lastData)) oldest = r;
    if (!oldest || Date.now() - oldest.lastData < STALLED_MS) return undefined;
    oldest.evict();
    return oldest.slot;
  }
  server.keepAliveTimeout = 5000;
  // A socket that sends nothing at all (no request ever starts) is reaped too: the header timeout only runs once bytes arrive.
  server.timeout = o.requestTimeoutMs + 1000;
  // ...but never one whose request is being judged or recorded (a ledger lock held by command hooks can take longer).
  server.on('timeout', (socket: Socket) => {
    if (!busy.has(socket)) socket.destroy();
  });
  // Node's own answer to a client error (a header timeout, a parse error), with one difference: a socket
  // that has sent no byte is closed without one. With the short connectionsCheckingInterval, Node 20's
  // default handler left such a socket open (destroyed on this side, never closed to the client).
  // An Expect other than 100-continue: Node would answer 417, "no decision" to a harness; the request is judged as any other.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => server.emit('request', req, res));
  server.on('clientError', (e: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) => {
    const inFlight = (socket as { _httpMessage?: { headersSent?: boolean; req?: IncomingMessage } })._httpMessage;
    if (socket.writable && socket.bytesRead > 0 && !inFlight?.headersSent) {
      const status = e.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : e.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : e.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW' ? '413 Payload Too Large' : '400 Bad Request';
      // A hook route whose event can block (or that names none) gets a block, never a status the harness reads as
      // "no decision": the request line comes from the bytes the parser refused, or from the request it had begun.
      // Read as leniently as any client may have meant it: any case of method, runs of blanks, any version, a line
      // ended by CR, LF or both (empty lines before it too), a target in absolute form (http://host/hooks/...).
      const target = inFlight?.req?.url ?? /^(?:\r\n|\r|\n){0,8}[A-Za-z]{3,10}[ \t]{1,8}(\S{1,2048})[ \t]{1,8}[A-Za-z]{1,8}\/[\d.]{1,8}(?:\r\n|\r|\n)/.exec(e.rawPacket?.subarray(0, 2200).toString('latin1') ?? '')?.[1];
      const path = target?.replace(/^[A-Za-z][A-Za-z0-9+.-]{0,16}:\/\/[^/?#]{0,255}/, '');
      const route = path === undefined ? undefined : /^\/hooks(?:\/([^/?#]+))?\/?(?:[?#]|$)/.exec(path);
      let event: string | undefined;
      try {
        event = route?.[1] ? decodeURIComponent(route[1]) : undefined;
      } catch {
        event = undefined;
      }
      if (route && mustBlock(event)) {
        metrics.refused(e.code === 'HPE_HEADER_OVERFLOW' ? 'header' : 'payload');
        const body = JSON.stringify({ decision: 'block', reason: `loom serve could not read this request (${status.slice(4)}): blocked` });
        socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
      } else socket.write(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`);
    }
    socket.destroy();
  });
  const socketPath = o.socketPath;
  if (socketPath) {
    prepareFolder(socketPath);
    claimPidFile(socketPath);
    try {
      await clearStaleSocket(socketPath);
    } catch (e) {
      releasePidFile(socketPath);
      throw e;
    }
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e) => {
      if (socketPath) releasePidFile(socketPath);
      reject(e);
    });
    if (socketPath) server.listen(socketPath, () => resolve());
    else server.listen(o.port, o.host, () => resolve());
  });
  if (socketPath) {
    try {
      restrictSocket(socketPath);
    } catch (e) {
      server.close();
      releasePidFile(socketPath);
      throw e;
    }
  }
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : o.port;
  const host = o.host.includes(':') ? `[${o.host}]` : o.host;
  return {
    server,
    url: socketPath ? `unix:${socketPath}` : `http://${host}:${port}`,
    close: () =>
      new Promise<ShutdownResult>((resolve) => {
        closing = true;
        // Stop accepting; requests in flight finish; then the last batch, a checkpoint, done.
        server.close(() => {
          void ledger.shutdown('server-shutdown').then((r) => {
            if (socketPath) releasePidFile(socketPath);
            resolve(r);
          });
        });
        server.closeIdleConnections();
      }),
  };
}
