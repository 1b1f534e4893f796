// Measuring helpers for npm run bench: interleaved samples, medians, ratios.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');
export const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

export interface Sample {
  wallMs: number;
  rssKb: number;
  /** User + system CPU time (GNU time, 10 ms resolution): less sensitive than wall to a shared machine's load. */
  cpuMs: number;
}

/** Runs a command once; wall from this process, peak RSS from GNU time. */
export function sample(cmd: string, args: string[], input: string, env: NodeJS.ProcessEnv = {}, cwd = ROOT): Sample {
  const full = TIME ? [TIME, '-f', '%M %U %S', cmd, ...args] : [cmd, ...args];
  const t0 = process.hrtime.bigint();
  const r = spawnSync(full[0], full.slice(1), { input, env: { ...process.env, ...env }, cwd, encoding: 'utf8' });
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0 && r.status !== 2) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const lines = (r.stderr || '').trim().split('\n');
  const [rss, user, sys] = TIME ? lines[lines.length - 1].split(' ').map(Number) : [NaN, NaN, NaN];
  return { wallMs, rssKb: rss, cpuMs: (user + sys) * 1000 };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

export interface Contender {
  name: string;
  run: (i: number) => Sample;
}

/** Interleaves contenders round by round so drift hits all of them alike. */
export function compare(contenders: Contender[], rounds: number, warmup = 3): Map<string, Sample[]> {
  const out = new Map<string, Sample[]>(contenders.map((c) => [c.name, []]));
  for (let i = 0; i < warmup; i++) for (const c of contenders) c.run(-1);
  for (let i = 0; i < rounds; i++) for (const c of contenders) out.get(c.name)!.push(c.run(i));
  return out;
}

export function report(title: string, results: Map<string, Sample[]>, baseline: string, targets: Record<string, { wall?: number; rss?: number }> = {}): string[] {
  const base = results.get(baseline)!;
  const bw = median(base.map((s) => s.wallMs));
  const br = median(base.map((s) => s.rssKb));
  const lines = [`## ${title}`, `baseline ${baseline}: median wall ${bw.toFixed(1)} ms, peak RSS ${(br / 1024).toFixed(1)} MiB, CPU ${median(base.map((s) => s.cpuMs)).toFixed(0)} ms (n=${base.length})`];
  for (const [name, samples] of results) {
    if (name === baseline) continue;
    const w = median(samples.map((s) => s.wallMs));
    const r = median(samples.map((s) => s.rssKb));
    const t = targets[name] ?? {};
    const wr = w / bw;
    const rr = r / br;
    const verdict = (x: number, lim?: number) => (lim === undefined ? '' : x <= lim ? ` (target <= ${lim.toFixed(2)}: met)` : ` (target <= ${lim.toFixed(2)}: NOT met)`);
    const c = median(samples.map((s) => s.cpuMs));
    const bc = median(base.map((s) => s.cpuMs));
    lines.push(`${name}: median wall ${w.toFixed(1)} ms = ${wr.toFixed(3)} x${verdict(wr, t.wall)}; peak RSS ${(r / 1024).toFixed(1)} MiB = ${rr.toFixed(3)} x${verdict(rr, t.rss)}; CPU ${c.toFixed(0)} ms = ${(c / bc).toFixed(3)} x`);
  }
  return lines;
}

export function benchProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'loom-bench-'));
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'src', 'index.ts'), 'export {}\n');
  return dir;
}

