// loom ship [--project-dir D] [--team-url URL] [--watch] [--interval S]
//   [--batch N] [--json] [--quiet] [--background]
// Ships the local ledger to the team store (docs/team.md). --watch keeps
// shipping (and exporting to OTLP when an endpoint is set) until stopped,
// waiting out a down server; --background is the detached child a hook
// starts at SessionEnd/Stop: one at a time per project, errors to ship.log.
import { appendFileSync, closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { compliancePaths } from '../../ledger/paths';
import { redactUrl } from '../../team/config';
import { closeQuietly, connect, TeamStoreError, type PgClient } from '../../team/pg';
import { DEFAULT_BATCH, shipLedger, type ShipResult } from '../../team/ship';
import { FlagError, parseFlags, projectDirFrom } from '../flags';
import { teamConfigFrom } from './team';
import { OtlpError, OtlpExporter, otlpHeaders, otlpLogsUrl } from '../../export/otlp-sink';
import { resolveTeamConfig } from '../../team/config';

function describe(r: ShipResult): string {
  const alerts = r.alerts.map((a) => `\n  ALERT ${a.kind} at seq ${a.seq}: ${a.detail}`).join('');
  return r.ledgerId ? `ledger ${r.ledgerId}: shipped ${r.shipped} records (store head seq ${r.storeHead}, local head seq ${r.localHead})${alerts}` : 'no local ledger yet: nothing to ship';
}

/** One shipper per project at a time (the lock holds the pid; a dead holder's lock is taken over). */
function takeLock(file: string): (() => void) | undefined {
  for (let i = 0; i < 2; i++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          unlinkSync(file);
        } catch {
          // gone already
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
      const pid = Number(readFileSync(file, 'utf8').trim());
      try {
        if (pid > 0) {
          process.kill(pid, 0);
          return undefined; // alive: it ships for us
        }
      } catch {
        // dead holder
      }
      try {
        unlinkSync(file);
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

function logLine(file: string, line: string): void {
  try {
    // Bounded: the log is for a human looking at a problem, not an archive.
    if ((statSync(file, { throwIfNoEntry: false })?.size ?? 0) > 1024 * 1024) unlinkSync(file);
    appendFileSync(file, `${new Date().toISOString()} ${line}\n`);
  } catch {
    // nowhere to report
  }
}

const sleep = (ms: number, stop: { stopped: boolean; wake?: () => void }) =>
  new Promise<void>((done) => {
    const t = setTimeout(done, ms);
    stop.wake = () => {
      clearTimeout(t);
      done();
    };
  });

export async function shipCommand(argv: string[]): Promise<number> {
  const f = parseFlags(argv, { values: ['project-dir', 'team-url', 'interval', 'batch', 'otlp'], booleans: ['watch', 'json', 'quiet', 'background'] });
  const project = resolve(projectDirFrom(f));
  const interval = f.values.interval === undefined ? 2 : Number(f.values.interval);
  if (!Number.isFinite(interval) || interval < 0.05 || interval > 86400) throw new FlagError(`--interval "${f.values.interval}": expected seconds between 0.05 and 86400`);
  const batch = f.values.batch === undefined ? DEFAULT_BATCH : Number(f.values.batch);
  if (!Number.isInteger(batch) || batch < 1 || batch > 50_000) throw new FlagError(`--batch "${f.values.batch}": expected 1-50000`);
  const background = f.booleans.has('background');
  const paths = compliancePaths(project);
  const log = join(paths.dir, 'ship.log');
  const otlpUrl = f.values.otlp ? otlpLogsUrl(f.values.otlp) : undefined;
  // With --otlp alone (no team store configured), only the collector is fed.
  const cfg = otlpUrl && !f.values['team-url'] && !resolveTeamConfig(project, process.env) ? undefined : teamConfigFrom(f);
  const exporter = otlpUrl ? new OtlpExporter(project, otlpUrl, otlpHeaders(process.env)) : undefined;
  const say = (line: string) => {
    if (background) logLine(log, line);
    else if (!f.booleans.has('quiet')) process.stderr.write(`loom ship: ${line}\n`);
  };
  let release: (() => void) | undefined;
  if (background) {
    release = takeLock(join(paths.dir, 'ship.lock'));
    if (!release) return 0;
  }
  const stop = { stopped: false, wake: undefined as undefined | (() => void) };
  const onSignal = () => {
    stop.stopped = true;
    stop.wake?.();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let client: PgClient | undefined;
  let down = false;
  let lastError = '';
  let lastFork = '';
  let backoff = interval * 1000;
  try {
    for (;;) {
      try {
        const empty: ShipResult = { shipped: 0, already: 0, storeHead: 0, localHead: 0, alerts: [], batches: 0 };
        let r = empty;
        if (cfg) {
          client ??= await connect(cfg, 'loom ship');
          r = await shipLedger(client, project, { batch });
        }
        if (exporter) {
          const o = await exporter.step();
          if (o.fork && o.fork !== lastFork) say(`ALERT fork (OTLP export): ${o.fork}`);
          lastFork = o.fork ?? '';
          if (o.sent) say(`exported ${o.sent} records to ${otlpUrl} (cursor seq ${o.seq})`);
        }
        if (down) say(cfg ? `team store reachable again at ${redactUrl(cfg.url)}` : `OTLP collector reachable again`);
        down = false;
        backoff = interval * 1000;
        if (!f.booleans.has('watch')) {
          if (f.booleans.has('json')) process.stdout.write(JSON.stringify(r) + '\n');
          else if (!background && !f.booleans.has('quiet')) process.stdout.write(describe(r) + '\n');
          else if (background && (r.shipped || r.alerts.length)) logLine(log, describe(r));
          return r.alerts.length ? 1 : 0;
        }
        if (r.shipped || r.alerts.length) say(describe(r));
      } catch (e) {
        await closeQuietly(client);
        client = undefined;
        const unreachable = (e instanceof TeamStoreError && e.code === 'unreachable') || (e instanceof OtlpError && e.retry);
        if (!f.booleans.has('watch')) {
          const msg = (e as Error).message;
          if (background) logLine(log, msg);
          else process.stderr.write(`loom ship: ${msg}\n`);
          if (e instanceof TeamStoreError || e instanceof OtlpError) return unreachable ? 3 : 2;
          throw e;
        }
        // Watching: every failure is waited out; the records stay in the local ledger.
        const msg = (e as Error).message;
        if (!down || msg !== lastError) say(`${msg}; the backlog stays in the local ledger and ships when it is back`);
        lastError = msg;
        down = true;
        backoff = Math.min(backoff * 2, 60_000);
      }
      if (stop.stopped) return 0;
      await sleep(down ? backoff : interval * 1000, stop);
      if (stop.stopped) return 0;
    }
  } finally {
    await closeQuietly(client);
    release?.();
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
}
