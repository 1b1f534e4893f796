// The CLI behaves as people expect from gh, npm and eslint: --version,
// help for every command (three spellings, exit 0), every option a command
// accepts is in its help, a typo gets the closest command, no colour when
// piped or with NO_COLOR, tables that fit the terminal.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENVIRONMENT, INTERNAL_ENVIRONMENT } from '../src/cli/environment';
import { closestCommand, COMMAND_HELP, commandHelp } from '../src/cli/help';
import { table, useColor } from '../src/cli/output';
import { CLI, ROOT, RUNNER, run, tempDir } from './helpers';

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
        // The option names are in the values and booleans lists (`positionals: 'own'` is no option).
        for (const list of text.matchAll(/(?:values|booleans):\s*\[([^\]]*)\]/g)) for (const q of list[1].matchAll(/'([a-z][a-z-]*)'/g)) names.add(q[1]);
      }
      out.set(m[1], names);
    }
  }
  return out;
}

describe('loom CLI', () => {
  it('--version and -v print the package version', async () => {
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
    for (const flag of ['--version', '-v', '-V']) {
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
      // the CLI prints the help table itself, so the next test can read the table in-process
      expect(outs[0].stdout).toBe(commandHelp(name));
    }
    expect(readdirSync(project)).toEqual([]);
  }, 180_000); // 3 processes per command: on the shared 2-core machine under load each takes over a second

  it('every option a command accepts is in its help', () => {
    const accepted = acceptedOptions();
    const fnOf: Record<string, string> = { uninstall: 'install' };
    for (const name of Object.keys(COMMAND_HELP)) {
      if (name === 'run') continue; // the runner's own flags, documented in the table
      const opts = accepted.get(fnOf[name] ?? name);
      expect(opts, `no parser found for ${name}`).toBeDefined();
      const help = commandHelp(name);
      for (const o of opts!) expect(help, `${name} accepts --${o}`).toMatch(new RegExp(`--${o}\\b`));
    }
  });

  it('the overall help lists every command; a typo gets the closest one', async () => {
    const r = await loom(['--help']);
    expect(r.code).toBe(0);
    for (const name of Object.keys(COMMAND_HELP)) expect(r.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
    const typo = await loom(['verfy']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('did you mean "loom verify"?');
    expect(closestCommand('hist')).toBe('history');
    expect(closestCommand('instal')).toBe('install');
    expect(closestCommand('docter')).toBe('doctor');
    expect(closestCommand('zzzzzz')).toBeUndefined();
    const unknownTopic = await loom(['help', 'reprot']);
    expect(unknownTopic.code).toBe(2);
    expect(unknownTopic.stderr).toContain('did you mean "loom report"?');
    const option = await loom(['--bogus']);
    expect([option.code, option.stderr.split('\n')[0]]).toEqual([2, 'loom: unknown option "--bogus"']);
  });

  it('the overall help gives each exit status one meaning, from the table main.ts sets them by', async () => {
    const { EXIT_CODES } = await import('../src/cli/exit-codes');
    const r = await loom(['--help']);
    for (const [code, meaning] of EXIT_CODES) expect(r.stdout).toContain(`  ${code}  ${meaning}`);
    expect(new Set(EXIT_CODES.map(([c]) => c)).size).toBe(EXIT_CODES.length);
  });

  it('the overall help lists the environment variables loom reads, and every LOOM_ variable the source reads is listed (or internal)', async () => {
    const r = await loom(['--help']);
    expect(r.stdout).toContain('Environment:');
    const listed = new Set(ENVIRONMENT.flatMap(([n]) => n.split(', ')));
    for (const n of listed) expect(r.stdout).toContain(n);
    const read = new Set<string>();
    const walk = (dir: string): void => {
      for (const f of readdirSync(dir)) {
        const p = join(dir, f);
        if (statSync(p).isDirectory()) walk(p);
        else if (p.endsWith('.ts')) for (const m of readFileSync(p, 'utf8').matchAll(/(?:env\.|env\[['"]|\$\{?|\b)(LOOM_[A-Z][A-Z0-9_]+)\b/g)) read.add(m[1]);
      }
    };
    walk(join(ROOT, 'src'));
    // Names that are not variables: heredoc tags, a constant's name.
    for (const n of ['LOOM_PROMPT', 'LOOM_STDIN', 'LOOM_PACKAGE', 'LOOM_DIR', 'LOOM_PROJECT_FILES', 'LOOM_FILE_NAMES', 'LOOM_PACKAGE_PATHS', 'LOOM_SAMPLE_PATHS', 'LOOM_IN_TEXT', 'LOOM_PROCESS', 'LOOM_RUNTIME_INPUT']) read.delete(n);
    const missing = [...read].filter((n) => !listed.has(n) && !INTERNAL_ENVIRONMENT.includes(n));
    expect(missing).toEqual([]);
  });

  it('every command the dispatcher knows has a help entry (a new command cannot ship without one)', () => {
    const src = readFileSync(join(ROOT, 'src', 'cli', 'main.ts'), 'utf8');
    const table = /const COMMANDS[^=]*= \{([\s\S]*?)\n\};/.exec(src);
    expect(table).not.toBeNull();
    const names = [...table![1].matchAll(/^\s+'?([a-z][\w-]*)'?:/gm)].map((m) => m[1]);
    expect(names.length).toBeGreaterThan(10);
    for (const n of names) expect(COMMAND_HELP[n], `loom ${n} has no help entry in src/cli/help.ts`).toBeDefined();
  });

  it('bad input is one line naming what and where, with a defined exit code, and writes nothing', async () => {
    const empty = tempDir();
    const none = join(empty, 'no-such-project');
    const cases: [string[], number, RegExp][] = [
      [['report', '--project-dir', none], 2, /^loom report: .*no-such-project\/\.loom\/compliance\/ledger\.db: no ledger database$/],
      [['evidence', '--project-dir', none], 2, /^loom evidence: .*no ledger database$/],
      [['history', '--project-dir', none], 2, /^loom history: .*no ledger database$/],
      [['verify', '--bundle', join(empty, 'nope.json')], 2, /^loom verify: cannot verify: .*nope\.json: no such file \(ENOENT\)$/],
      [['team'], 2, /^loom team: expected a subcommand: loom team init$/],
      [['team', 'int'], 2, /^loom team: unknown subcommand "int"; expected: loom team init$/],
      [['serve', '--token-file', join(empty, 'token')], 2, /^loom serve: --token-file .*token: no such file \(ENOENT\)$/],
    ];
    for (const [args, code, line] of cases) {
      const r = await loom(args);
      expect(r.code, args.join(' ')).toBe(code);
      expect(r.stderr.trimEnd(), args.join(' ')).toMatch(line);
      expect(r.stderr.trimEnd().split('\n'), args.join(' ')).toHaveLength(1);
    }
    expect(existsSync(none)).toBe(false);
  }, 120_000);

  it('file errors are one line naming the file and what is wrong with it, never Node\'s message (a folder where a file is expected, a missing file, a file where a folder is expected, a read-only folder)', async () => {
    const project = tempDir();
    const hook = await run(process.execPath, [RUNNER, '--event', 'PostToolUse', '--project-dir', project], JSON.stringify({ hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } }), {});
    expect(hook.code, hook.stderr).toBe(0);
    const folder = tempDir();
    const file = join(tempDir(), 'plain-file');
    writeFileSync(file, 'x\n');
    const missing = join(tempDir(), 'missing.txt');
    const p = ['--project-dir', project];
    const cases: [string[], NodeJS.ProcessEnv, number, RegExp][] = [
      [['verify', '--bundle', folder], {}, 2, /^loom verify: cannot verify: \S+: is a folder, not a file \(EISDIR\)$/],
      [['erase', '--match-file', folder, '--reason', 'r', ...p], {}, 2, /^loom erase: --match-file \S+: is a folder, not a file \(EISDIR\)$/],
      [['erase', '--match-file', missing, '--reason', 'r', ...p], {}, 2, /^loom erase: --match-file \S+missing\.txt: no such file \(ENOENT\)$/],
      [['report', '--out', folder, ...p], {}, 2, /^loom report: --out \S+: is a folder, not a file \(EISDIR\)$/],
      [['evidence', '--out', join(file, 'e.md'), ...p], {}, 2, /^loom evidence: --out \S+plain-file\/e\.md: cannot create \S+plain-file: .*not a folder$/],
      [['verify', ...p], { LOOM_LEDGER_KEY_FILE: folder }, 2, /^loom verify: cannot verify: LOOM_LEDGER_KEY_FILE \S+: is a folder, not a file \(EISDIR\)$/],
      [['verify', ...p], { LOOM_LEDGER_KEY_FILE: missing }, 2, /^loom verify: cannot verify: LOOM_LEDGER_KEY_FILE \S+: no such file \(ENOENT\)$/],
    ];
    // A read-only folder (root writes anywhere: then the case cannot be made).
    if (process.getuid?.() !== 0) {
      const ro = tempDir();
      chmodSync(ro, 0o555);
      cases.push([['report', '--out', join(ro, 'r.html'), ...p], {}, 2, /^loom report: --out \S+r\.html: permission denied \(EACCES\)$/]);
    }
    for (const [args, env, code, line] of cases) {
      const r = await run(process.execPath, [CLI, ...args], null, env);
      expect(r.code, args.join(' ')).toBe(code);
      expect(r.stderr.trimEnd(), args.join(' ')).toMatch(line);
      expect(r.stderr, args.join(' ')).not.toMatch(/illegal operation|ENOENT: no such file or directory|(E[A-Z]+): \1:|\n\s+at /);
    }
    // The runner: a registry that is a folder, or missing, is said in words too.
    for (const [config, words] of [[folder, 'is a folder, not a file \\(EISDIR\\)'], [missing, 'no such file \\(ENOENT\\)']]) {
      const r = await run(process.execPath, [RUNNER, '--event', 'PreToolUse', '--config', config, '--project-dir', project], JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } }), {});
      expect(r.code).toBe(2);
      expect(r.stderr.trim()).toMatch(new RegExp(`cannot read registry: ${words}$`));
    }
    // Disk full is said as such, with the file (an injected ENOSPC / EDQUOT: a real full disk is the chaos suite's).
    const { oneLineError } = await import('../src/util/one-line-error');
    expect(oneLineError(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', path: '/x/report.html', syscall: 'write' }))).toBe('/x/report.html: disk full (ENOSPC)');
    expect(oneLineError(Object.assign(new Error('EDQUOT: disk quota exceeded, write'), { code: 'EDQUOT', path: '/x/a' }))).toBe('/x/a: disk full (quota exceeded) (EDQUOT)');
    expect(oneLineError(Object.assign(new Error("EISDIR: illegal operation on a directory, open '/x'"), { code: 'EISDIR', path: '/x' }))).toBe('/x: is a folder, not a file (EISDIR)');
  }, 120_000);

  it('an unknown option is one line naming it; a missing value too', async () => {
    const bad = await loom(['history', '--colour']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe('loom history: unknown option --colour');
    // a typo close to an option this command takes gets it suggested
    expect((await loom(['history', '--lmit', '3'])).stderr.trim()).toBe('loom history: unknown option --lmit; did you mean --limit?');
    const missing = await loom(['history', '--limit']);
    expect(missing.stderr.trim()).toBe('loom history: --limit needs a value');
  });

  it('the colour rule: FORCE_COLOR wins (0 or false: off), then NO_COLOR and TERM=dumb, else a terminal only', () => {
    expect(useColor({ isTTY: true }, {})).toBe(true);
    expect(useColor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(useColor({ isTTY: true }, { NO_COLOR: '' })).toBe(true);
    expect(useColor({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
    expect(useColor({ isTTY: false }, {})).toBe(false);
    expect(useColor({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    expect(useColor({ isTTY: false }, { FORCE_COLOR: '' })).toBe(true);
    expect(useColor({ isTTY: false }, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(true);
    expect(useColor({ isTTY: true }, { FORCE_COLOR: '0' })).toBe(false);
    expect(useColor({ isTTY: true }, { FORCE_COLOR: 'false' })).toBe(false);
  });

  it('tables fit the terminal width; piped output keeps whole lines', () => {
    const rows = [['1', 'PreToolUse', 'x'.repeat(200)]];
    for (const width of [40, 80, 120]) for (const line of table(['seq', 'event', 'summary'], rows, 300, width).trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(width);
    expect(table(['seq', 'event', 'summary'], rows, 300, Infinity)).toContain('x'.repeat(200));
  });
});

// Colour as a person and a script meet it: every command that prints a
// verdict, run as a real process, piped (no escape codes), with FORCE_COLOR
// (codes, and the same text once they are stripped), and on a real terminal
// (script(1) gives the process a pty) with and without NO_COLOR.
describe('colour across commands', () => {
  const ESC = '\x1b[';
  const strip = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');
  const home = tempDir('loom-home-');
  const project = tempDir('loom-colour-');
  const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_STATE_HOME: join(home, '.state'), LOOM_MANAGED_SETTINGS_DIR: join(home, 'managed'), FORCE_COLOR: undefined, NO_COLOR: undefined, TERM: 'xterm', COLUMNS: undefined, ...extra });
  // Each run gets fresh folders for the commands that write (install, init), so every run prints the same thing.
  const commands = () => {
    const fresh = tempDir('loom-colour-init-');
    return {
      history: ['history', '--project-dir', project],
      report: ['report', '--project-dir', project, '--out', join(tempDir(), 'r.html')],
      verify: ['verify', '--project-dir', project],
      doctor: ['doctor', '--project-dir', project],
      validate: ['validate', '--project-dir', project],
      explain: ['explain', 'rm -rf /', '--project-dir', project],
      install: ['install', '--harness', 'codex', '--project-dir', tempDir('loom-colour-install-')],
      init: ['init', '--harness', 'claude', '--yes', '--project-dir', fresh],
    } as Record<string, string[]>;
  };
  // The verdict each command must colour when colour is on.
  const painted: Record<string, string> = {
    history: `${ESC}31mdeny${ESC}0m`,
    report: `ledger ${ESC}32mintact${ESC}0m`,
    verify: `${ESC}32mintact${ESC}0m`,
    doctor: `${ESC}32mok${ESC}0m`,
    validate: `${ESC}32mwired${ESC}0m`,
    explain: `decision: ${ESC}31mDENY${ESC}0m`,
    install: `${ESC}1minstall codex (project)${ESC}0m`,
    init: `${ESC}32mwired${ESC}0m claude`,
  };
  const runAll = async (extra: NodeJS.ProcessEnv) => {
    const out: Record<string, { code: number | null; stdout: string; stderr: string }> = {};
    for (const [name, args] of Object.entries(commands())) out[name] = await run(process.execPath, [CLI, ...args], null, env(extra));
    return out;
  };
  /** Runs loom on a pseudo-terminal, as a person at a terminal would. */
  const onTerminal = (args: string[], extra: NodeJS.ProcessEnv) => {
    const q = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;
    return run('script', ['-qec', [process.execPath, CLI, ...args].map(q).join(' '), '/dev/null'], null, env(extra));
  };

  beforeAll(async () => {
    await run(process.execPath, [CLI, 'install', '--harness', 'claude', '--project-dir', project], null, env());
    for (const command of ['rm -rf /', 'ls'])
      await run(process.execPath, [RUNNER, '--event', 'PreToolUse'], JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 'colour-1', tool_name: 'Bash', tool_input: { command }, cwd: project }), env({ CLAUDE_PROJECT_DIR: project }));
  }, 60_000);

  it('piped: no escape codes from any command; FORCE_COLOR=1: each colours its verdict and strips back to the piped text', async () => {
    const piped = await runAll({});
    const forced = await runAll({ FORCE_COLOR: '1' });
    for (const name of Object.keys(painted)) {
      expect(piped[name].code, `${name}: ${piped[name].stderr}`).toBe(forced[name].code);
      expect(piped[name].stdout + piped[name].stderr, name).not.toContain(ESC);
      expect(forced[name].stdout, name).toContain(painted[name]);
      // colour never moves a column or changes a word (temp folder names differ between the runs)
      const paths = (s: string) => s.replace(/\/tmp\/[\w.-]+/g, '/tmp/X');
      if (name !== 'doctor') expect(paths(strip(forced[name].stdout)), name).toBe(paths(piped[name].stdout));
    }
    expect(piped.history.stdout).toMatch(/^\d+ +\S+ +PreToolUse +\S+ +deny +critical /m);
    const off = await run(process.execPath, [CLI, ...commands().history], null, env({ FORCE_COLOR: '0' }));
    expect(off.stdout).toMatch(/ deny +critical /);
    expect(off.stdout).not.toContain(ESC);
  }, 120_000);

  it('on a terminal: colour; NO_COLOR or TERM=dumb: none', async () => {
    const tty = await onTerminal(['history', '--project-dir', project], {});
    expect(tty.stdout).toContain(painted.history);
    expect(tty.stdout).toContain(`${ESC}1mseq${ESC}0m`);
    for (const extra of [{ NO_COLOR: '1' }, { TERM: 'dumb' }]) {
      const plain = await onTerminal(['history', '--project-dir', project], extra);
      expect(plain.stdout).toMatch(/ deny +critical /);
      expect(plain.stdout, JSON.stringify(extra)).not.toContain(ESC);
    }
    const init = await onTerminal(['init', '--harness', 'claude', '--yes', '--project-dir', tempDir()], {});
    expect(init.stdout).toContain(painted.init);
  }, 60_000);

  it('--no-color beats a terminal and FORCE_COLOR=1; --color colours piped output, before or after the command', async () => {
    const tty = await onTerminal(['history', '--no-color', '--project-dir', project], { FORCE_COLOR: '1' });
    expect(tty.stdout).toMatch(/ deny +critical /);
    expect(tty.stdout).not.toContain(ESC);
    const piped = await run(process.execPath, [CLI, '--color', ...commands().history], null, env({ NO_COLOR: '1' }));
    expect(piped.code).toBe(0);
    expect(piped.stdout).toContain(painted.history);
    expect((await run(process.execPath, [CLI, '--help'], null, env())).stdout).toContain('--no-color');
  }, 60_000);
});

describe('readers in a folder with no ledger', () => {
  it('erase and export say there is no ledger (exit 2) and create none; a bad --out names the path given, and leaves no partial file', async () => {
    const dir = tempDir();
    const erase = await run(process.execPath, [CLI, 'erase', '--seq', '1', '--path', '$.tool_use.command', '--reason', 'r', '--project-dir', dir], null);
    expect([erase.code, erase.stderr.trim()]).toEqual([2, `loom erase: ${join(dir, '.loom/compliance/ledger.db')}: no ledger database`]);
    const exp = await run(process.execPath, [CLI, 'export', '--format', 'jsonl', '--out', join(dir, 'out.jsonl'), '--project-dir', dir], null);
    expect([exp.code, exp.stderr.trim()]).toEqual([2, `loom export: ${join(dir, '.loom/compliance/ledger.db')}: no ledger database`]);
    expect(readdirSync(dir)).toEqual([]);
    // With a ledger: an --out whose folder is missing is named as given.
    await run(process.execPath, [CLI, 'init', '--harness', 'claude', '--yes', '--project-dir', dir], null);
    const hook = await run(process.execPath, [RUNNER, '--event', 'PostToolUse', '--project-dir', dir], JSON.stringify({ hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } }), {});
    expect(hook.code).toBe(0);
    const bad = await run(process.execPath, [CLI, 'export', '--format', 'jsonl', '--out', join(dir, 'nope/out.jsonl'), '--project-dir', dir], null);
    expect([bad.code, bad.stderr.trim()]).toEqual([2, `loom export: --out ${join(dir, 'nope/out.jsonl')}: its folder does not exist`]);
    const none = await run(process.execPath, [CLI, 'export', '--out', join(dir, 'out.jsonl'), '--project-dir', dir], null);
    expect([none.code, none.stderr.trim()]).toEqual([2, 'loom export: --format is required: one of jsonl, otlp, cef']);
    expect(readdirSync(dir).filter((n) => n.includes('partial'))).toEqual([]);
  }, 60_000);
});

describe('outputs and inputs that are not regular files (black-box findings)', () => {
  it('export --out of a device is refused (the temp file renamed over it replaced /dev/full), exit 2', async () => {
    const project = tempDir();
    mkdirSync(join(project, '.loom', 'compliance'), { recursive: true });
    const r = await run(process.execPath, [CLI, 'export', '--format', 'jsonl', '--out', '/dev/null', '--project-dir', project], null);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--out /dev/null: not a regular file');
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
  });

  it('verify --bundle and erase --match-file of /dev/zero end at once with the reason', async () => {
    const project = tempDir();
    const v = await run(process.execPath, [CLI, 'verify', '--bundle', '/dev/zero'], null);
    expect(v.code).toBe(2);
    expect(v.stderr).toContain('not a regular file');
    const e = await run(process.execPath, [CLI, 'erase', '--match-file', '/dev/zero', '--reason', 'r', '--project-dir', project], null);
    expect(e.code).toBe(2);
    expect(e.stderr).toContain('--match-file /dev/zero: not a regular file');
  });
});

describe('fold where there is no ledger', () => {
  it('says so (exit 2) and creates nothing', async () => {
    const missing = join(tempDir(), 'nothing-here');
    const r = await run(process.execPath, [CLI, 'fold', '--project-dir', missing], null);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no ledger here');
    expect(existsSync(missing)).toBe(false);
  });
});

describe('start-up and explain rough edges (black-box findings G15)', () => {
  it('loom serve with a token file that never ends, a FIFO or a bad port: one line and exit 2 at once, not a hang', async () => {
    const dir = tempDir();
    await run('mkfifo', [join(dir, 'fifo')], null);
    for (const [args, msg] of [
      [['--token-file', '/dev/zero'], '--token-file /dev/zero: not a regular file'],
      [['--token-file', join(dir, 'fifo')], 'not a regular file'],
      [['--port', '99999'], '--port "99999": expected 0-65535'],
    ] as const) {
      const r = await loom(['serve', '--port', '0', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr).toContain(msg);
    }
  }, 30_000);

  it('loom explain judges a push as the hook does: on the project\'s branch (main: deny), unless --branch says otherwise', async () => {
    const project = tempDir();
    await run('git', ['init', '-q', '-b', 'main'], null, {}, project);
    const onMain = await loom(['explain', 'git push --force', '--project-dir', project]);
    expect(onMain.stdout).toMatch(/^decision: DENY/);
    const onFeature = await loom(['explain', 'git push --force', '--project-dir', project, '--branch', 'feature/x']);
    expect(onFeature.stdout).toMatch(/^decision: ASK/);
  });
});

describe('history --decision takes every decision a record can hold (black-box finding A11)', () => {
  it('error, succeeded and the ledger\'s own acts filter; an unknown word is one line naming the list', async () => {
    const project = tempDir();
    const post = JSON.stringify({ hook_event_name: 'PostToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: { stdout: 'ok' }, cwd: project });
    await run(process.execPath, [RUNNER, '--event', 'PostToolUse', '--project-dir', project], post);
    await run(process.execPath, [RUNNER, '--event', 'PostToolUse', '--project-dir', project], 'not json');
    const err = await loom(['history', '--project-dir', project, '--decision', 'error', '--json']);
    expect(err.code, err.stderr).toBe(0);
    expect((JSON.parse(err.stdout) as { decision: string }[]).map((r) => r.decision)).toEqual(['error']);
    const ok = await loom(['history', '--project-dir', project, '--decision', 'succeeded', '--json']);
    expect((JSON.parse(ok.stdout) as { decision: string }[]).length).toBe(1);
    const bad = await loom(['history', '--project-dir', project, '--decision', 'nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe('loom history: --decision "nope": expected one of allow, ask, deny, error, succeeded, failed, acknowledged, recovered, erased');
  });
});

describe('report --user on a project ledger (black-box finding A12)', () => {
  it('keeps only that actor\'s records, and says so in the page\'s filter', async () => {
    const project = tempDir();
    const pre = (sid: string) => JSON.stringify({ hook_event_name: 'PreToolUse', session_id: sid, tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: project });
    await run(process.execPath, [RUNNER, '--event', 'PreToolUse', '--project-dir', project], pre('a'), { USER: 'ana', LOGNAME: 'ana' });
    const me = (await loom(['history', '--project-dir', project, '--json'])).stdout;
    const user = (JSON.parse(me) as { tool_call: { actor: { user: string } } }[])[0].tool_call.actor.user;
    const out = join(tempDir(), 'r.html');
    const mine = await loom(['report', '--project-dir', project, '--user', user, '--out', out]);
    expect(mine.code, mine.stderr).toBe(0);
    expect(mine.stdout).toContain('(1 record;');
    expect(readFileSync(out, 'utf8')).toContain(`user ${user}`);
    const none = await loom(['report', '--project-dir', project, '--user', 'nobody@example.invalid', '--out', out]);
    expect(none.stdout).toContain('(0 records;');
  });
});

describe('help topics and ranges (black-box finding A26)', () => {
  it('loom help help, loom --help verify: help, exit 0; --since after --until is one line saying the range is empty', async () => {
    const helpHelp = await loom(['help', 'help']);
    expect(helpHelp.code, helpHelp.stderr).toBe(0);
    expect(helpHelp.stdout).toMatch(/^loom \d/);
    const topic = await loom(['--help', 'verify']);
    expect(topic.code).toBe(0);
    expect(topic.stdout).toMatch(/^loom verify: /);
    const project = tempDir();
    await run(process.execPath, [RUNNER, '--event', 'PreToolUse', '--project-dir', project], JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 'r', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: project }));
    for (const cmd of ['history', 'report', 'export']) {
      const r = await loom([cmd, '--project-dir', project, '--since', '1d', '--until', '2d', ...(cmd === 'export' ? ['--format', 'jsonl'] : []), ...(cmd === 'report' ? ['--out', join(tempDir(), 'r.html')] : [])]);
      expect(r.code, cmd).toBe(2);
      expect(r.stderr.trim().split('\n'), cmd).toEqual([expect.stringMatching(/--since 1d .* is after --until 2d .*the range is empty/)]);
    }
  });
});

describe('history shows and filters the host (black-box finding A15)', () => {
  it('a host column, and --host keeps only records made there', async () => {
    const project = tempDir();
    await run(process.execPath, [RUNNER, '--event', 'PreToolUse', '--project-dir', project], JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 'h', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: project }));
    const host = (await import('node:os')).hostname();
    const all = await loom(['history', '--project-dir', project], { COLUMNS: '' });
    expect(all.stdout.split('\n')[0].split(/\s{2,}/)).toContain('host');
    expect(all.stdout).toContain(host);
    const here = await loom(['history', '--project-dir', project, '--host', host, '--json']);
    expect(JSON.parse(here.stdout)).toHaveLength(1);
    const elsewhere = await loom(['history', '--project-dir', project, '--host', 'no-such-host.invalid', '--json']);
    expect(JSON.parse(elsewhere.stdout)).toHaveLength(0);
  });
});
