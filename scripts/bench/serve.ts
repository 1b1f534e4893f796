// Issues 7 and 17 §5: `loom serve` with the full PreToolUse guard and the
// durable ledger, 32 connections (autocannon): p99 at a fixed offered rate,
// throughput at saturation, each beside a bare node:http server answering {}
// in the same run; and the server's RSS at the 100,000th and 200,000th request.
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
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const lines = ['## serve: HTTP decisions with the full guard and the durable ledger (issues 7, 17 §5)'];
  const rate = Number(process.env.LOOM_BENCH_RATE ?? 5000);

  const bare = await startChild(process.execPath, ['-e', BARE]);
  const loom = await startChild(process.execPath, [join(ROOT, 'bin', 'loom.js'), 'serve', '--port', '0', '--project-dir', project], { LOOM_SERVE_TOKEN: '' });
  try {
    await autocannon(opts(loom.url, { amount: 2000 })); // warm-up
    await autocannon(opts(bare.url, { amount: 2000 }));
    let sent = 2000;
    // At a fixed offered rate (autocannon -R): p99 means what a user sees at that load; in a closed
    // loop it is only 32 / throughput (Little's law).
    const fl = await autocannon(opts(loom.url, { duration: 10, overallRate: rate }));
    const fb = await autocannon(opts(bare.url, { duration: 10, overallRate: rate }));
    sent += fl.requests.total;
    lines.push(`offered ${rate.toLocaleString('en-US')}/s, 32 connections: loom serve answered ${Math.round(fl.requests.average)}/s, p50 ${fl.latency.p50} ms, p99 ${fl.latency.p99} ms (target <= 5: ${met(fl.latency.p99 <= 5)}), non-2xx ${fl.non2xx}, errors ${fl.errors}; bare node:http ${Math.round(fb.requests.average)}/s, p99 ${fb.latency.p99} ms; p99 ratio ${(fl.latency.p99 / Math.max(1, fb.latency.p99)).toFixed(2)} x`);
    // Saturation: as many as 32 connections get answered, closed loop.
    const a = await autocannon(opts(loom.url, { duration: 10 }));
    const b = await autocannon(opts(bare.url, { duration: 10 }));
    sent += a.requests.total;
    lines.push(
      `saturation, 32 connections closed loop: loom serve ${Math.round(a.requests.average)} decisions/s (target >= 8,000: ${met(a.requests.average >= 8000)}), p50 ${a.latency.p50} ms, p99 ${a.latency.p99} ms, non-2xx ${a.non2xx}, errors ${a.errors}; bare node:http answering {} ${Math.round(b.requests.average)} req/s; ratio ${(a.requests.average / b.requests.average).toFixed(3)} x`,
    );
    const wl = wrk(`${loom.url}/hooks/PreToolUse`, body, 10);
    const wb = wl && wrk(`${bare.url}/hooks/PreToolUse`, '{}', 10);
    if (wl && wb) lines.push(`wrk -t1 -c32 (cross-check): loom serve ${Math.round(wl.rps)} decisions/s, p99 ${wl.p99.toFixed(2)} ms; bare server ${Math.round(wb.rps)} req/s, p99 ${wb.p99.toFixed(2)} ms`);
    else lines.push('wrk not installed: no cross-check (apt-get install wrk)');
    sent += wl?.total ?? 0;
    // Memory: at the 100,000th request (counting everything sent so far) and at the 200,000th.
    if (sent < 100_000) await autocannon(opts(loom.url, { amount: 100_000 - sent }));
    const at100k = rssKb(loom.child.pid!);
    await autocannon(opts(loom.url, { amount: 100_000 }));
    const at200k = rssKb(loom.child.pid!);
    lines.push(`RSS at request ${Math.max(sent, 100_000).toLocaleString('en-US')}: ${(at100k / 1024).toFixed(1)} MiB; 100,000 requests later: ${(at200k / 1024).toFixed(1)} MiB = ${((at200k / at100k - 1) * 100).toFixed(1)}% (target within 10%: ${met(Math.abs(at200k / at100k - 1) <= 0.1)})`);
  } finally {
    bare.child.kill('SIGKILL');
    loom.child.kill('SIGTERM');
  }
  return lines;
}
