// Issue 7: `loom serve` with the full PreToolUse guard and the durable
// ledger under 32 concurrent connections (autocannon), against a bare
// node:http server answering {} in the same run; and the server's RSS from
// the 10,000th to the 200,000th request.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchProject, ROOT } from './measure';

const autocannon = require('autocannon') as (o: Record<string, unknown>) => Promise<{ requests: { average: number; total: number }; latency: { p99: number; p50: number; average: number }; non2xx: number; errors: number; duration: number }>;

function startChild(cmd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const onData = (d: Buffer) => {
      out += d;
      const m = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve({ child, url: m[1] });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (c) => reject(new Error(`exited ${c}: ${out}`)));
  });
}

const BARE = `require('http').createServer((q,s)=>{q.resume();q.on('end',()=>{s.writeHead(200,{'content-type':'application/json'});s.end('{}')})}).listen(0,'127.0.0.1',function(){console.log('http://127.0.0.1:'+this.address().port)})`;

/**
 * A second opinion from wrk (C, one thread) when it is installed: autocannon
 * is JavaScript on the same two cores and its own event loop and GC add to
 * what it measures. Returns undefined when wrk is not on PATH.
 */
function wrk(url: string, body: string, seconds: number): { rps: number; p99: number; total: number } | undefined {
  if (spawnSync('wrk', ['--version']).error) return undefined;
  const script = join(mkdtempSync(join(tmpdir(), 'loom-wrk-')), 'post.lua');
  writeFileSync(script, `wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = ${JSON.stringify(body)}\n`);
  const r = spawnSync('wrk', ['-t1', '-c32', `-d${seconds}s`, '--latency', '-s', script, url], { encoding: 'utf8' });
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(r.stdout);
  const p99 = /^\s+99%\s+([\d.]+)(us|ms|s)\s*$/m.exec(r.stdout);
  const total = /(\d+) requests in/.exec(r.stdout);
  if (!rps || !p99 || !total) return undefined;
  const scale = { us: 0.001, ms: 1, s: 1000 }[p99[2] as 'us' | 'ms' | 's'];
  return { rps: Number(rps[1]), p99: Number(p99[1]) * scale, total: Number(total[1]) };
}

function rssKb(pid: number): number {
  const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : NaN;
}

export async function benchServe(): Promise<string[]> {
  const project = benchProject();
  const body = JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 'bench', tool_name: 'Bash', tool_input: { command: 'npm test && git status --short' }, cwd: project });
  const opts = (url: string, extra: Record<string, unknown>) => ({ url: `${url}/hooks/PreToolUse`, method: 'POST', connections: 32, headers: { 'content-type': 'application/json' }, body, ...extra });
  const lines = ['## serve: HTTP decisions with the full guard and the durable ledger (issue 7)'];

  const bare = await startChild(process.execPath, ['-e', BARE]);
  const loom = await startChild(process.execPath, [join(ROOT, 'bin', 'loom.js'), 'serve', '--port', '0', '--project-dir', project], { LOOM_SERVE_TOKEN: '' });
  try {
    await autocannon(opts(loom.url, { amount: 2000 })); // warm-up
    await autocannon(opts(bare.url, { amount: 2000 }));
    const a = await autocannon(opts(loom.url, { duration: 10 }));
    const b = await autocannon(opts(bare.url, { duration: 10 }));
    lines.push(`bare node:http answering {}: ${Math.round(b.requests.average)} req/s, p99 ${b.latency.p99} ms`);
    lines.push(
      `loom serve, PreToolUse guard + durable ledger: ${Math.round(a.requests.average)} decisions/s (target >= 3,000: ${a.requests.average >= 3000 ? 'met' : 'NOT met'}), p50 ${a.latency.p50} ms, p99 ${a.latency.p99} ms (target <= 10: ${a.latency.p99 <= 10 ? 'met' : 'NOT met'}), non-2xx ${a.non2xx}, errors ${a.errors}`,
    );
    lines.push(`ratio to the bare server: throughput ${(a.requests.average / b.requests.average).toFixed(3)} x, p99 ${(a.latency.p99 / Math.max(1, b.latency.p99)).toFixed(2)} x`);
    const wl = wrk(`${loom.url}/hooks/PreToolUse`, body, 10);
    const wb = wl && wrk(`${bare.url}/hooks/PreToolUse`, '{}', 10);
    if (wl && wb) lines.push(`wrk -t1 -c32 (cross-check): loom serve ${Math.round(wl.rps)} decisions/s, p99 ${wl.p99.toFixed(2)} ms; bare server ${Math.round(wb.rps)} req/s, p99 ${wb.p99.toFixed(2)} ms`);
    else lines.push('wrk not installed: no cross-check (apt-get install wrk)');
    // Memory: from the 10,000th request on (counting everything sent so far) to the 200,000th.
    const sent = 2000 + a.requests.total + (wl?.total ?? 0);
    if (sent < 10_000) await autocannon(opts(loom.url, { amount: 10_000 - sent }));
    const at10k = rssKb(loom.child.pid!);
    const done = Math.max(sent, 10_000);
    await autocannon(opts(loom.url, { amount: 200_000 - done }));
    const at200k = rssKb(loom.child.pid!);
    lines.push(`RSS at request 10,000: ${(at10k / 1024).toFixed(1)} MiB; at 200,000: ${(at200k / 1024).toFixed(1)} MiB = ${((at200k / at10k - 1) * 100).toFixed(1)}% (target <= +10%: ${at200k <= at10k * 1.1 ? 'met' : 'NOT met'})`);
  } finally {
    bare.child.kill('SIGKILL');
    loom.child.kill('SIGTERM');
  }
  return lines;
}
