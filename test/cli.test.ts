// The CLI behaves as people expect from gh, npm and eslint: --version,
// help for every command (three spellings, exit 0), every option a command
// accepts is in its help, a typo gets the closest command, no colour when
// piped or with NO_COLOR, tables that fit the terminal.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closestCommand, COMMAND_HELP } from '../src/cli/help';
import { table, useColor } from '../src/cli/output';
import { CLI, ROOT, run, tempDir } from './helpers';

const loom = (args: string[], env: NodeJS.ProcessEnv = {}) => run(process.execPath, [CLI, ...args], null, { HOME: tempDir('loom-home-'), ...env });

/** The option names each command's parser accepts, read from its source (parseFlags specs and the *_FLAGS constants). */
function acceptedOptions(): Map<string, Set<string>> {
  const dir = join(ROOT, 'src', 'cli', 'commands');
  const out = new Map<string, Set<string>>();
  for (const f of readdirSync(dir)) {
    const src = readFileSync(join(dir, f), 'utf8');
    // `export function fooCommand(` ... the spec arrays that follow, up to the next exported command
    for (const m of src.matchAll(/export (?:async )?function (\w+)Command\(([\s\S]*?)(?=\nexport |$)/g)) {
      const names = new Set<string>();
      const body = m[2];
      const specs = [...body.matchAll(/parseFlags\([^,]+,\s*(\{[^}]*\}|[A-Z_]+)\)/g)].map((x) => x[1]);
      for (const spec of specs) {
        const text = spec.startsWith('{') ? spec : (new RegExp(`${spec} = (\\{[^}]*\\})`).exec(src)?.[1] ?? '');
        for (const q of text.matchAll(/'([a-z][a-z-]*)'/g)) names.add(q[1]);
      }
      out.set(m[1], names);
    }
  }
  return out;
}

describe('loom CLI', () => {
  it('--version and -v print the package version', async () => {
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
    for (const flag of ['--version', '-v']) {
      const r = await loom([flag]);
      expect(r.code).toBe(0);
      expect(r.stdout.trim()).toBe(version);
    }
  });

  it('every command: `loom help <cmd>`, `loom <cmd> --help` and `-h` print its help and exit 0, writing nothing', async () => {
    const project = tempDir();
    for (const name of Object.keys(COMMAND_HELP)) {
      const outs = await Promise.all([loom(['help', name]), loom([name, '--help', '--project-dir', project]), loom([name, '-h'])]);
      for (const r of outs) {
        expect(r.code, `${name}: ${r.stderr}`).toBe(0);
        expect(r.stdout).toContain(`loom ${name}: `);
        expect(r.stdout).toContain('Usage:');
      }
      expect(outs[1].stdout).toBe(outs[0].stdout);
    }
    expect(readdirSync(project)).toEqual([]);
  });

  it('every option a command accepts is in its help', async () => {
    const accepted = acceptedOptions();
    const fnOf: Record<string, string> = { uninstall: 'install' };
    for (const name of Object.keys(COMMAND_HELP)) {
      if (name === 'run') continue; // the runner's own flags, documented in the table
      const opts = accepted.get(fnOf[name] ?? name);
      expect(opts, `no parser found for ${name}`).toBeDefined();
      const help = (await loom(['help', name])).stdout;
      for (const o of opts!) expect(help, `${name} accepts --${o}`).toMatch(new RegExp(`--${o}\\b`));
    }
  });

  it('the overall help lists every command; a typo gets the closest one', async () => {
    const r = await loom(['--help']);
    expect(r.code).toBe(0);
    for (const name of Object.keys(COMMAND_HELP)) expect(r.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
    const typo = await loom(['verfy']);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain('did you mean "loom verify"?');
    expect(closestCommand('hist')).toBe('history');
    expect(closestCommand('instal')).toBe('install');
    expect(closestCommand('docter')).toBe('doctor');
    expect(closestCommand('zzzzzz')).toBeUndefined();
    const unknownTopic = await loom(['help', 'reprot']);
    expect(unknownTopic.code).toBe(1);
    expect(unknownTopic.stderr).toContain('did you mean "loom report"?');
  });

  it('an unknown option is one line naming it; a missing value too', async () => {
    const bad = await loom(['history', '--colour']);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim()).toBe('loom history: unknown option --colour');
    const missing = await loom(['history', '--limit']);
    expect(missing.stderr.trim()).toBe('loom history: --limit needs a value');
  });

  it('no colour when piped or with NO_COLOR; colour on a terminal', async () => {
    const r = await loom(['doctor', '--project-dir', tempDir()]);
    expect(r.stdout).not.toContain('\x1b[');
    expect(useColor({ isTTY: true }, {})).toBe(true);
    expect(useColor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(useColor({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
    expect(useColor({ isTTY: false }, {})).toBe(false);
  });

  it('tables fit the terminal width; piped output keeps whole lines', () => {
    const rows = [['1', 'PreToolUse', 'x'.repeat(200)]];
    for (const width of [40, 80, 120]) for (const line of table(['seq', 'event', 'summary'], rows, 300, width).trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(width);
    expect(table(['seq', 'event', 'summary'], rows, 300, Infinity)).toContain('x'.repeat(200));
  });
});
