// Tables fit the terminal: `loom history` through the real CLI with
// COLUMNS=60/80/120 prints no line wider than the terminal, shrinks the
// widest columns first (with an ellipsis) and never below a readable
// minimum; piped without COLUMNS it prints whole lines.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { table } from '../src/cli/output';
import { CLI, RUNNER, run, tempDir } from './helpers';

async function projectWithLongRows(): Promise<string> {
  const project = tempDir('loom-width-');
  const home = tempDir('loom-width-home-');
  mkdirSync(join(project, '.git'));
  writeFileSync(join(project, '.git', 'config'), '[user]\n\temail = a.very.long.name.for.a.developer@engineering.example.com\n');
  writeFileSync(join(project, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  for (const command of ['ls -la', `echo ${'lorem ipsum dolor sit amet '.repeat(6)}`, 'rm -rf /', 'git push --force origin main']) {
    const r = await run(process.execPath, [RUNNER, '--event', 'PreToolUse'], JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 'a-rather-long-session-identifier-0001', tool_name: 'Bash', tool_input: { command }, cwd: project }), { CLAUDE_PROJECT_DIR: project, GIT_CONFIG_NOSYSTEM: '1', HOME: home });
    expect([0, 2]).toContain(r.code);
  }
  return project;
}

const history = (project: string, env: NodeJS.ProcessEnv) => run(process.execPath, [CLI, 'history', '--project-dir', project], null, env);

describe('loom history fits the terminal', () => {
  it('COLUMNS=60, 80, 120: no line wider, the widest columns cut with an ellipsis, none below its minimum', async () => {
    const project = await projectWithLongRows();
    const piped = await history(project, { COLUMNS: '' });
    expect(piped.code, piped.stderr).toBe(0);
    const whole = piped.stdout.trimEnd().split('\n');
    // piped: whole lines, the full summary and email
    expect(Math.max(...whole.map((l) => l.length))).toBeGreaterThan(120);
    expect(piped.stdout).toContain('a.very.long.name.for.a.developer@engineering.example.com');

    for (const width of [60, 80, 120]) {
      const r = await history(project, { COLUMNS: String(width) });
      expect(r.code, r.stderr).toBe(0);
      const lines = r.stdout.trimEnd().split('\n');
      expect(lines).toHaveLength(whole.length);
      for (const line of lines) expect(line.length, `COLUMNS=${width}: ${line}`).toBeLessThanOrEqual(width);
      const head = lines[0].split(/\s{2,}/);
      // who, what and when stay at every width
      for (const col of ['seq', 'ts', 'event', 'decision', 'user', 'summary']) expect(head, `COLUMNS=${width}`).toContain(col);
      expect(r.stdout).toContain('…');
      // the timestamp keeps the second it happened
      expect(lines[2]).toMatch(/^\d+\s+\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
      // the user keeps a readable start
      expect(r.stdout).toMatch(/a\.ver\S*…/);
      // a risk level is never cut: critical stays critical
      if (width >= 80) expect(r.stdout).toMatch(/\bcritical\b/);
      if (width === 120) for (const col of ['hook', 'risk', 'session']) expect(head).toContain(col);
    }
  });

  it('COLUMNS=40 and 20: too narrow for any row, one record per block with every field, no line wider, no value cut', async () => {
    const project = await projectWithLongRows();
    for (const width of [40, 20]) {
      const r = await history(project, { COLUMNS: String(width), NO_COLOR: '1' });
      expect(r.code, r.stderr).toBe(0);
      const lines = r.stdout.trimEnd().split('\n');
      for (const line of lines) expect(line.length, `COLUMNS=${width}: ${line}`).toBeLessThanOrEqual(Math.max(width, 20));
      expect(r.stdout).not.toContain('…');
      // four records, each a block naming every field
      const blocks = r.stdout.trimEnd().split('\n\n');
      expect(blocks).toHaveLength(4);
      for (const b of blocks) for (const field of ['seq', 'ts', 'event', 'decision', 'user', 'summary']) expect(b, `COLUMNS=${width}`).toMatch(new RegExp(`^${field}\\s`, 'm'));
      // the wrapped email joins back whole
      expect(r.stdout.replace(/\n\s+/g, '')).toContain('a.very.long.name.for.a.developer@engineering.example.com');
    }
  });

  it('the widest column gives way first', () => {
    const out = table(['id', 'name', 'notes'], [['1', 'n'.repeat(30), 'x'.repeat(50)]], 60, 60, { color: false });
    const [head, , row] = out.trimEnd().split('\n');
    expect(row.length).toBeLessThanOrEqual(60);
    // both long columns are cut to the same width: the widest shrank first, until they met
    const [, name, notes] = row.split(/\s{2,}/);
    expect(name.endsWith('…') && notes.endsWith('…')).toBe(true);
    expect(Math.abs(name.length - notes.length)).toBeLessThanOrEqual(1);
    expect(head.startsWith('id')).toBe(true);
  });

  it('history --help says how --since is read', async () => {
    const r = await run(process.execPath, [CLI, 'history', '--help'], null);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/--since T\s+a date, a date and time \(local time unless it ends in Z or an offset\) or an age/);
  });
});
