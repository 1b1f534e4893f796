// --since / --until: a date alone and a date with a time agree on the time
// zone (local, unless the text names one), in every zone, DST days included.
import { afterEach, describe, expect, it } from 'vitest';
import { parseTimeBound } from '../src/ledger/query';
import { join } from 'node:path';
import { CLI, ROOT, run, tempDir } from './helpers';

const TZ = process.env.TZ;
afterEach(() => {
  if (TZ === undefined) delete process.env.TZ;
  else process.env.TZ = TZ;
});

describe('parseTimeBound', () => {
  for (const zone of ['UTC', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham', 'Europe/Berlin']) {
    it(`${zone}: "2026-11-30" is "2026-11-30 00:00", both local; Z and offsets name their own zone`, () => {
      process.env.TZ = zone;
      for (const day of ['2026-11-30', '2026-03-29', '2026-10-25', '2026-03-08', '2026-11-01']) {
        expect(parseTimeBound(day, '--since')).toBe(parseTimeBound(`${day} 00:00`, '--since'));
        expect(parseTimeBound(day, '--since')).toBe(parseTimeBound(`${day}T00:00:00`, '--since'));
        expect(parseTimeBound(`${day} 18:35`, '--since')).toBe(new Date(`${day}T18:35:00`).toISOString());
      }
      expect(parseTimeBound('2026-11-30T18:35:00Z', '--since')).toBe('2026-11-30T18:35:00.000Z');
      expect(parseTimeBound('2026-11-30 18:35+02:00', '--since')).toBe('2026-11-30T16:35:00.000Z');
      const now = Date.parse('2026-11-30T12:00:00Z');
      expect(parseTimeBound('90m', '--since', now)).toBe('2026-11-30T10:30:00.000Z');
    });
  }

  it('names the flag and the text when it is neither a date nor an age', () => {
    for (const bad of ['2026-13-40', '2026-11-30 25:00', 'yesterday', '3 days', '2026-11-30T', '']) expect(() => parseTimeBound(bad, '--until')).toThrow(`--until "${bad}"`);
  });

  it('the CLI takes both forms: the same records for "2026-11-30" and "2026-11-30 00:00" in a zone far from UTC', async () => {
    const project = tempDir();
    const env = { TZ: 'Pacific/Kiritimati' };
    await run(join(ROOT, 'hooks', 'pre-tool-guard'), [], JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: project }));
    // today's date where the clock is 14 hours ahead of UTC
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: env.TZ }).format(new Date());
    const a = await run(process.execPath, [CLI, 'history', '--project-dir', project, '--since', today, '--json'], null, env);
    const b = await run(process.execPath, [CLI, 'history', '--project-dir', project, '--since', `${today} 00:00`, '--json'], null, env);
    expect(a.code, a.stderr).toBe(b.code);
    expect(a.stdout).toBe(b.stdout);
    expect(JSON.parse(a.stdout)).toHaveLength(1);
  });
});
