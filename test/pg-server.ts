// A real PostgreSQL for the team-store tests and the bench: initdb into a
// temp folder once per test file, start it on a free loopback port, stop and
// remove it afterwards. PostgreSQL refuses to run as root, so under root the
// cluster belongs to the `postgres` user and every pg binary runs through
// runuser. The superuser has a password (scram over TCP), so the tests go
// through real authentication.
// node:child_process rather than execa: `npm run bench -- team` loads this file under tsx as CommonJS, where execa 9
// (ESM-only, and so are its dependencies' exports) cannot be required.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

export interface PgServer {
  /** Superuser URL with its password (postgres://loom_admin:...@127.0.0.1:port/loom). */
  url: string;
  port: number;
  password: string;
  dir: string;
  start(): void;
  stop(): void;
  /** Stops the server and removes its folder. */
  destroy(): void;
}

function pgBin(name: string): string {
  const dirs: string[] = [];
  if (process.env.LOOM_PG_BIN) dirs.push(process.env.LOOM_PG_BIN);
  if (existsSync('/usr/lib/postgresql')) {
    for (const v of readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a))) dirs.push(join('/usr/lib/postgresql', v, 'bin'));
  }
  for (const d of dirs) if (existsSync(join(d, name))) return join(d, name);
  const which = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  if (which.status === 0 && which.stdout.trim()) return which.stdout.trim();
  throw new Error(`PostgreSQL's ${name} was not found (install Debian's postgresql package: .ci/run does it)`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

const asRoot = userInfo().uid === 0;

function runPg(bin: string, args: string[]): void {
  const cmd = asRoot ? ['runuser', '-u', 'postgres', '--', pgBin(bin), ...args] : [pgBin(bin), ...args];
  execFileSync(cmd[0], cmd.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
}

export interface PgServerOptions {
  /** fsync off: tests only; the bench keeps PostgreSQL's defaults. */
  fast?: boolean;
}

export async function startPgServer(opts: PgServerOptions = { fast: true }): Promise<PgServer> {
  const dir = mkdtempSync(join(tmpdir(), 'loom-pg-'));
  const data = join(dir, 'data');
  const password = `pw-${Math.random().toString(36).slice(2)}-${Date.now()}`;
  const pwfile = join(dir, 'pw');
  writeFileSync(pwfile, password + '\n');
  if (asRoot) {
    chownSync(dir, pgUid(), pgGid());
    chownSync(pwfile, pgUid(), pgGid());
  }
  chmodSync(dir, 0o700);
  runPg('initdb', ['-D', data, '-U', 'loom_admin', `--pwfile=${pwfile}`, '--auth-host=scram-sha-256', '--auth-local=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  let port = await freePort();
  const settings = ['-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${dir}`, '-c', 'max_connections=200'];
  if (opts.fast) settings.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  const start = () => {
    for (let attempt = 0; ; attempt++) {
      try {
        runPg('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-w', '-t', '60', '-o', [`-p ${port}`, ...settings.map((s) => (s === '-c' ? s : `'${s}'`))].join(' '), 'start']);
        return;
      } catch (e) {
        if (attempt >= 2) throw new Error(`pg_ctl start failed: ${String((e as { stderr?: Buffer }).stderr ?? e)}`);
      }
    }
  };
  const server: PgServer = {
    url: '',
    port,
    password,
    dir,
    start,
    stop: () => runPg('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
    destroy: () => {
      try {
        server.stop();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    start();
  } catch (e) {
    // The free port was taken in between: one more try on another.
    port = await freePort();
    server.port = port;
    start();
    void e;
  }
  // The database the store lives in.
  runPg('createdb', ['-h', dir, '-p', String(port), '-U', 'loom_admin', 'loom']);
  server.url = `postgres://loom_admin:${encodeURIComponent(password)}@127.0.0.1:${port}/loom`;
  return server;
}

let ids: { uid: number; gid: number } | undefined;
function pgIds(): { uid: number; gid: number } {
  if (!ids) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    ids = { uid, gid };
  }
  return ids;
}
const pgUid = () => pgIds().uid;
const pgGid = () => pgIds().gid;
