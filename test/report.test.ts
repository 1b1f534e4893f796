import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CLI, ROOT, run, tempDir } from './helpers';

const CHROMIUM = '/usr/bin/chromium';
const loom = (args: string[], env: NodeJS.ProcessEnv = {}) => run(process.execPath, [CLI, ...args], null, env);

async function demoProject(): Promise<string> {
  const project = tempDir();
  const r = await loom(['demo', '--project-dir', project]);
  expect(r.code, r.stderr).toBe(0);
  // a record whose text tries to inject markup into the report
  await run(join(ROOT, 'hooks', 'pre-tool-guard'), [], JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 'xss', tool_name: 'Bash', tool_input: { command: 'echo "<script>window.__pwned=1</script><img src=x onerror=alert(1)>"' }, cwd: project }));
  return project;
}

describe('loom report', () => {
  it.skipIf(!existsSync(CHROMIUM))('renders in a real headless browser: no console errors, non-empty SVG charts, a working filter', async () => {
    const project = await demoProject();
    const r = await loom(['report', '--project-dir', project]);
    expect(r.code, r.stderr).toBe(0);
    const file = join(project, '.loom/reports/compliance.html');
    const html = readFileSync(file, 'utf8');
    expect(html).not.toMatch(/<script>window\.__pwned/);
    expect(html).not.toMatch(/(?:src|href)=["']?https?:/);
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      const requests: string[] = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('request', (q) => !q.url().startsWith('file:') && requests.push(q.url()));
      await page.goto('file://' + file);
      expect(await page.textContent('.status')).toMatch(/Ledger intact: 23 records verified/);
      for (const id of ['chart-events', 'chart-decisions', 'chart-risk', 'chart-timeline', 'chart-denied-commands', 'chart-denied-rules']) {
        const rects = await page.$$eval(`#${id} rect`, (els) => els.filter((e) => Number(e.getAttribute('width')) > 0 && Number(e.getAttribute('height')) > 0).length);
        expect(rects, id).toBeGreaterThan(0);
      }
      expect(await page.textContent('#n-redacted')).toBe('1');
      // risk in severity order, worst first, whatever the counts
      const risks = await page.$$eval('#chart-risk rect title', (ts) => ts.map((t) => (t.textContent ?? '').split(':')[0]));
      const order = ['critical', 'high', 'medium', 'low', 'none'];
      expect(risks.length).toBeGreaterThan(2);
      expect([...risks].sort((a, b) => order.indexOf(a) - order.indexOf(b))).toEqual(risks);
      // a time axis: five tick labels that are real times, in order, the first day named in the caption
      const ticks = await page.$$eval('#chart-timeline text.tick', (ts) => ts.map((t) => t.textContent ?? ''));
      expect(ticks.length).toBe(5);
      expect(ticks.every((t) => /^\d{2}:\d{2}:\d{2}$/.test(t))).toBe(true);
      expect([...ticks].sort()).toEqual(ticks);
      expect(await page.textContent('figure:has(#chart-timeline) figcaption')).toMatch(/one axis from \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}, local time UTC[+-]\d{2}:\d{2}/);
      // the ask of the demo, with what became of it; user, host and harness columns
      expect(await page.textContent('#asks')).toContain('no answer on record');
      expect(await page.$$eval('#records th', (th) => th.map((h) => h.textContent))).toEqual(expect.arrayContaining(['user', 'host', 'harness', 'approval']));
      const all = Number(await page.getAttribute('#records tbody', 'data-shown'));
      await page.fill('#filter', 'rm-recursive');
      const filtered = Number(await page.getAttribute('#records tbody', 'data-shown'));
      expect(filtered).toBeGreaterThan(0);
      expect(filtered).toBeLessThan(all);
      const texts = await page.$$eval('#records tbody tr', (trs) => trs.map((t) => t.textContent ?? ''));
      expect(texts.every((t) => t.includes('rm-recursive'))).toBe(true);
      // CSV of the filtered table: a header and exactly the rows the filter keeps
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
      const csv = readFileSync((await download.path())!, 'utf8').trim().split('\r\n');
      expect(csv[0]).toBe('seq,ts,event,decision,approval,risk,user,host,harness,session_id,hook_id,summary,reason');
      expect(csv.length - 1).toBe(filtered);
      expect(csv.slice(1).every((l) => l.includes('rm-recursive'))).toBe(true);
      expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
      mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
      await page.screenshot({ path: join(ROOT, 'test-artifacts', 'compliance-report.png'), fullPage: true });
      expect(errors).toEqual([]);
      expect(requests).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 120_000);

  it('shows a tampered ledger on top with the first bad seq', async () => {
    const project = await demoProject();
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(join(project, '.loom/compliance/ledger.db'));
    db.exec('DROP TRIGGER records_no_update');
    db.prepare(`UPDATE records SET body = replace(body, '"risk":"critical"', '"risk":"low"') WHERE seq = (SELECT min(seq) FROM records WHERE body LIKE '%"risk":"critical"%')`).run();
    db.close();
    const r = await loom(['report', '--project-dir', project, '--out', join(project, 'r.html')]);
    expect(readFileSync(join(project, 'r.html'), 'utf8')).toMatch(/Ledger TAMPERED at seq \d+: edited/);
    // a tampered ledger fails CI whatever --fail-on says
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('the ledger is tampered');
    expect((await loom(['evidence', '--project-dir', project])).code).toBe(1);
  });

  it('--fail-on deny|high: exit 1 when the range holds one, 0 when it does not; a bad value is named', async () => {
    const project = await demoProject();
    const out = join(project, 'r.html');
    expect((await loom(['report', '--project-dir', project, '--out', out])).code).toBe(0);
    const deny = await loom(['evidence', '--project-dir', project, '--fail-on', 'deny']);
    expect(deny.code).toBe(1);
    expect(deny.stderr).toMatch(/failing: \d+ denied action/);
    expect((await loom(['report', '--project-dir', project, '--out', out, '--fail-on', 'high'])).code).toBe(1);
    // nothing in a range that ends before the first record
    expect((await loom(['report', '--project-dir', project, '--out', out, '--fail-on', 'deny,high', '--until', '2000-01-01'])).code).toBe(0);
    const bad = await loom(['report', '--project-dir', project, '--fail-on', 'warn']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--fail-on "warn"');
  });
});

describe('loom evidence and loom doctor', () => {
  it('evidence: verify result, head hash, denied actions with reasons, handoffs', async () => {
    const project = await demoProject();
    const r = await loom(['evidence', '--project-dir', project]);
    expect(r.stdout).toMatch(/\*\*Ledger: intact\.\*\* 23 records verified/);
    expect(r.stdout).toMatch(/head seq 23, hash `[0-9a-f]{64}`/);
    expect(r.stdout).toContain('### Denied actions');
    expect(r.stdout).toMatch(/rm-recursive-home: recursively deletes the home folder/);
    // who was denied: the denied-actions table names the user
    expect(r.stdout).toContain('| first seq | first time | times | user | event | what | reason |');
    const user = /\| \d+ \| [^|]+ \| \d+ \| ([^|]*) \| PreToolUse \|/.exec(r.stdout)?.[1].trim();
    expect(user === userInfo().username || /@/.test(user ?? ''), `user cell: ${user}`).toBe(true);
    expect(r.stdout).toContain('### Compaction handoffs');
    expect(r.stdout).toMatch(/specs\/_session-demo-[^/]+\/handoffs\/compact-\d{8}T\d{9}-/);
    const out = join(project, 'evidence.md');
    // a spec that does not exist is refused, naming it; one without handoffs says so
    const missing = await loom(['evidence', '--project-dir', project, '--out', out, '--spec', 'specs/nothing']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--spec specs/nothing: no such folder');
    mkdirSync(join(project, 'specs', 'empty-spec'), { recursive: true });
    await loom(['evidence', '--project-dir', project, '--out', out, '--spec', 'specs/empty-spec']);
    expect(readFileSync(out, 'utf8')).toContain('no handoffs on record');
  });

  it('doctor: one line per check, failing ones with their fix', async () => {
    const project = tempDir();
    const home = tempDir('loom-home-');
    const before = await loom(['doctor', '--project-dir', project], { HOME: home });
    expect(before.code).toBe(1);
    expect(before.stdout).toMatch(/^ok {3}node: Node \d+/m);
    expect(before.stdout).toMatch(/^ok {3}better-sqlite3: loads/m);
    expect(before.stdout).toMatch(/^FAIL harnesses: .* -> fix: run loom install/m);
    await loom(['install', '--harness', 'claude', '--project-dir', project], { HOME: home });
    const after = await loom(['doctor', '--project-dir', project, '--json'], { HOME: home, LOOM_CHECKPOINT_DIR: join(home, 'cps') });
    const j = JSON.parse(after.stdout);
    expect(j.checks.find((c: { name: string }) => c.name === 'harness claude')).toMatchObject({ ok: true });
    expect(j.checks.find((c: { name: string }) => c.name === 'checkpoint dir')).toMatchObject({ ok: true });
    expect(j.ok).toBe(true);
  });
});
