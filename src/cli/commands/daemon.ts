// loom daemon start|stop|status [--project-dir D] [--socket PATH]: a
// detached `loom serve --socket` for one project, which the hook wrappers
// try before starting Node (docs/serve.md). The server writes its pid file
// beside the socket once it owns it, and removes it when it stops.
import { EXIT } from '../exit-codes';
import { execa } from 'execa';
import { closeSync, existsSync, openSync, readFileSync, realpathSync } from 'node:fs';
import { request } from 'node:http';
import { join, resolve } from 'node:path';
import { defaultSocketPath, logFileOf, pidAlive, pidFileOf, prepareFolder, readPid, socketAnswers } from '../../serve/socket-path';
import { FlagError, parseFlags, projectDirFrom } from '../flags';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function daemonSocket(projectDir: string, flag: string | undefined): string {
  if (flag) return resolve(flag);
  const s = defaultSocketPath(projectDir);
  if (!s) throw new FlagError(`no default socket for ${projectDir} (no runtime folder, or a folder name with characters other than printable ASCII); give --socket or set LOOM_SOCKET`);
  return s;
}

/** GET /healthz over the socket: the status text, or undefined when nothing answers. */
export function health(socket: string, timeoutMs = 2000): Promise<{ status: number; body: string } | undefined> {
  return new Promise((done) => {
    const req = request({ socketPath: socket, path: '/healthz', method: 'GET', timeout: timeoutMs }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c.length < 4096 ? c : ''));
      res.on('end', () => done({ status: res.statusCode ?? 0, body }));
      res.on('error', () => done(undefined));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => done(undefined));
    req.end();
  });
}

function logTail(socket: string): string {
  try {
    return readFileSync(logFileOf(socket), 'utf8').trim().split('\n').slice(-3).join('\n');
  } catch {
    return '';
  }
}

async function start(projectDir: string, socket: string, waitMs: number, quiet: boolean): Promise<number> {
  prepareFolder(socket);
  if (await socketAnswers(socket)) {
    if (!quiet) process.stdout.write(`loom daemon: already running on ${socket} (pid ${readPid(pidFileOf(socket)) ?? '?'})\n`);
    return 0;
  }
  const log = openSync(logFileOf(socket), 'a', 0o600);
  // Detached, its output appended to the log file: the daemon outlives this command.
  const child = execa(process.execPath, [join(__dirname, '..', 'bin', 'loom.js'), 'serve', '--socket', socket, '--project-dir', projectDir], {
    detached: true,
    // The log file's descriptor goes to the child as is (execa's types only take a descriptor as a number literal).
    stdin: 'ignore',
    stdout: log as 1,
    stderr: log as 1,
    cwd: projectDir,
    reject: false,
    // The hook path makes no TLS call; the team store (if any) keeps its settings.
    env: { LOOM_SOCKET: socket },
  });
  closeSync(log);
  let exited: number | null | undefined;
  void child.then((r) => (exited = r.exitCode ?? null));
  child.unref();
  const until = Date.now() + waitMs;
  while (Date.now() < until && exited === undefined) {
    if ((await health(socket, 500))?.status === 200) {
      if (!quiet) process.stdout.write(`loom daemon: running on ${socket} (pid ${child.pid}); log ${logFileOf(socket)}\n`);
      return 0;
    }
    await sleep(25);
  }
  // Lost a race to another starter: that one answers now.
  if ((await health(socket, 500))?.status === 200) return 0;
  process.stderr.write(`loom daemon: did not start${exited !== undefined ? ` (exit ${exited})` : ` within ${waitMs} ms`}${logTail(socket) ? `:\n${logTail(socket)}` : ''}\n`);
  return EXIT.cannot;
}

async function status(socket: string): Promise<number> {
  const h = await health(socket);
  const pid = readPid(pidFileOf(socket));
  if (!h) {
    process.stdout.write(`loom daemon: not running (${socket}${existsSync(socket) ? ': a stale socket file' : ''})\n`);
    return 3;
  }
  let state = 'unknown';
  try {
    state = String((JSON.parse(h.body) as { status?: unknown }).status);
  } catch {
    // not JSON: say the status code
  }
  process.stdout.write(`loom daemon: ${h.status === 200 ? 'running' : `unhealthy (${h.status})`}, ${state}, pid ${pid ?? '?'}, socket ${socket}\n`);
  return h.status === 200 ? 0 : 1;
}

/** Whether `pid` is a loom serve on `socket` (where /proc tells): a reused pid is never signalled. */
function isOurServer(pid: number, socket: string): boolean {
  try {
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return cmd.includes('serve') && cmd.includes(socket);
  } catch {
    return !existsSync('/proc/self');
  }
}

async function stop(socket: string, waitMs: number): Promise<number> {
  const pid = readPid(pidFileOf(socket));
  if (pid === undefined || !pidAlive(pid)) {
    if (await socketAnswers(socket)) {
      process.stderr.write(`loom daemon: something answers on ${socket} but ${pidFileOf(socket)} names no live process; stop it by hand\n`);
      return 1;
    }
    process.stdout.write(`loom daemon: not running\n`);
    return 0;
  }
  if (!isOurServer(pid, socket)) {
    process.stderr.write(`loom daemon: pid ${pid} (from ${pidFileOf(socket)}) is not loom serve on ${socket}; not signalling it\n`);
    return 1;
  }
  process.kill(pid, 'SIGTERM');
  const until = Date.now() + waitMs;
  while (pidAlive(pid)) {
    if (Date.now() > until) {
      process.stderr.write(`loom daemon: pid ${pid} still running after ${waitMs} ms\n`);
      return 1;
    }
    await sleep(25);
  }
  process.stdout.write(`loom daemon: stopped (pid ${pid})\n`);
  return 0;
}

export async function daemonCommand(argv: string[]): Promise<number> {
  const f = parseFlags(argv, { values: ['project-dir', 'socket', 'wait-ms'], booleans: ['quiet'], positionals: 'own' });
  const [action, ...extra] = f.positional;
  if (!action || !['start', 'stop', 'status'].includes(action) || extra.length) throw new FlagError('usage: loom daemon start|stop|status [--project-dir D] [--socket PATH]');
  const waitMs = Number(f.values['wait-ms'] ?? 10_000);
  if (!Number.isInteger(waitMs) || waitMs < 0) throw new FlagError('--wait-ms: expected a non-negative integer');
  let projectDir: string;
  try {
    projectDir = realpathSync.native(resolve(projectDirFrom(f)));
  } catch (e) {
    throw new FlagError(`project folder ${projectDirFrom(f)}: ${(e as NodeJS.ErrnoException).code ?? 'cannot be resolved'}`);
  }
  const socket = daemonSocket(projectDir, f.values.socket);
  if (action === 'start') return start(projectDir, socket, waitMs, f.booleans.has('quiet'));
  if (action === 'status') return status(socket);
  return stop(socket, waitMs);
}
