// `loom <command>`: the runner and the reviewer commands. Each command lives
// in its own module under commands/.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { closestCommand, COMMAND_HELP, commandHelp, overallHelp } from './help';
import { EXIT } from './exit-codes';
import { KeyError } from '../ledger/chain';
import { QueryError } from '../ledger/query';
import { classifySqliteError, addonProblem, LedgerError } from '../ledger/store';
import { oneLineError } from '../runner/fail-closed';
import { PolicyError } from '../policy/policy';
import { SettingsError } from '../install/merge';
import { ScopeError } from '../install/targets';
import { exitNow } from '../runner/isolation';
import { runAndExit } from '../runner/main';
import { ownValue } from '../util/own';
import { currentFolder } from '../util/current-folder';
import { checkpointCommand } from './commands/checkpoint';
import { demoCommand } from './commands/demo';
import { explainCommand } from './commands/explain';
import { installCommand, uninstallCommand } from './commands/install';
import { initCommand } from './commands/init';
import { validateCommand } from './commands/validate';
import { serveCommand } from './commands/serve';
import { evidenceCommand, reportCommand } from './commands/report';
import { doctorCommand } from './commands/doctor';
import { historyCommand } from './commands/history';
import { verifyCommand } from './commands/verify';
import { shipCommand } from './commands/ship';
import { exportCommand } from './commands/export';
import { teamCommand } from './commands/team';
import { TeamConfigError } from '../team/config';
import { TeamStoreError } from '../team/pg';
import { foldCommand } from './commands/fold';
import { recoverCommand } from './commands/recover';
import { eraseCommand } from './commands/erase';
import { daemonCommand } from './commands/daemon';
import { FlagError } from './flags';

type Command = (argv: string[]) => number | Promise<number>;
const COMMANDS: Record<string, Command> = {
  init: initCommand,
  verify: verifyCommand,
  history: historyCommand,
  checkpoint: checkpointCommand,
  explain: explainCommand,
  demo: demoCommand,
  install: installCommand,
  uninstall: uninstallCommand,
  validate: validateCommand,
  serve: serveCommand,
  report: reportCommand,
  evidence: evidenceCommand,
  doctor: doctorCommand,
  ship: shipCommand,
  export: exportCommand,
  team: teamCommand,
  fold: foldCommand,
  recover: recoverCommand,
  erase: eraseCommand,
  daemon: daemonCommand,
};

// `loom history | head` closes the pipe early: that is not an error. Any other failure to write the output (a full disk)
// is one line and exit 2: an export or evidence that did not reach its file is not a success.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  const what = e.code === 'ENOSPC' || e.code === 'EDQUOT' ? 'disk full' : e.code ?? e.message;
  process.stderr.write(`loom ${process.argv[2] ?? ''}: cannot write the output: ${what}\n`);
  process.exit(EXIT.cannot);
});

function version(): string {
  try {
    return String(JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).version);
  } catch {
    return 'unknown';
  }
}

const wantsHelp = (args: string[]) => args.some((a) => a === '--help' || a === '-h');

/** `--no-color` / `--color` anywhere before `--`: the same as FORCE_COLOR=0 / 1 for this run (a flag beats the environment). */
function colorFlags(argv: string[]): string[] {
  const end = argv.indexOf('--') < 0 ? argv.length : argv.indexOf('--');
  const out: string[] = [];
  argv.forEach((a, i) => {
    if (i < end && (a === '--no-color' || a === '--color')) process.env.FORCE_COLOR = a === '--color' ? '1' : '0';
    else out.push(a);
  });
  return out;
}

function main(argvIn: string[]): void {
  const argv = colorFlags(argvIn);
  const [cmd, ...rest] = argv;
  if (cmd === '--version' || cmd === '-v' || cmd === '-V' || cmd === 'version') {
    process.stdout.write(`${version()}\n`);
    return;
  }
  if (cmd === undefined || cmd === 'help' || cmd === '--help' || cmd === '-h') {
    // `loom help verify`, `loom --help verify` and `loom help help` all name a topic.
    const topic = rest[0] === undefined || rest[0].startsWith('-') ? undefined : rest[0] === 'help' ? undefined : rest[0];
    if (topic !== undefined && !COMMAND_HELP[topic]) {
      unknownCommand(topic);
      return;
    }
    process.stdout.write(topic ? commandHelp(topic) : overallHelp(version()));
    process.exitCode = cmd === undefined ? EXIT.cannot : EXIT.ok;
    return;
  }
  if (COMMAND_HELP[cmd] && wantsHelp(cmd === 'run' || cmd === 'explain' ? rest.slice(0, rest.indexOf('--') < 0 ? undefined : rest.indexOf('--')) : rest)) {
    process.stdout.write(commandHelp(cmd));
    return;
  }
  if (cmd === 'run') {
    runAndExit(rest, { hooksDir: join(__dirname, '..', 'hooks') });
    return;
  }
  const fn = ownValue(COMMANDS, cmd);
  if (!fn) {
    unknownCommand(cmd);
    return;
  }
  try {
    currentFolder();
  } catch (e) {
    process.stderr.write(`loom ${cmd}: ${(e as Error).message}\n`);
    process.exitCode = 2;
    return;
  }
  const fail = (e: unknown) => {
    if (e instanceof FlagError || e instanceof QueryError || e instanceof LedgerError || e instanceof KeyError || e instanceof PolicyError || e instanceof SettingsError || e instanceof ScopeError || e instanceof TeamConfigError || e instanceof TeamStoreError) {
      process.stderr.write(`loom ${cmd}: ${e.message}\n`);
      // EXIT_CODES: 2 whenever loom could not do what was asked (a usage error, a path it cannot use, no database or
      // a corrupt one, a server that did not start); 1 only for a finding (tampered, --fail-on), which the command
      // returns itself: a CI reading `loom verify --bad-flag` must not see "tampered".
      process.exitCode = e instanceof LedgerError && (e.code === 'tampered' || e.code === 'nothing') ? EXIT.no : EXIT.cannot;
      return;
    }
    // Anything else is still one line naming what went wrong, never a stack trace of the bundle.
    const err = e as { code?: unknown };
    // The SQLite addon that will not load (before any ledger.db exists too: `bindings` then speaks of a module root) is named as such.
    const sqlite = (typeof err?.code === 'string' && err.code.startsWith('SQLITE_')) || addonProblem(e) ? classifySqliteError(e, ledgerFileOf(rest)) : undefined;
    process.stderr.write(`loom ${cmd}: ${sqlite ? sqlite.message : oneLineError(e)}\n`);
    process.exitCode = EXIT.cannot;
  };
  try {
    const r = fn(rest);
    if (typeof r === 'number') process.exitCode = r;
    else
      r.then(
        (code) => {
          process.exitCode = code;
          // The server leaves nothing pending once stopped.
          if (cmd === 'serve') exitNow(code);
        },
        fail,
      );
  } catch (e) {
    fail(e);
  }
}

/** The ledger database a command's arguments point at (for an SQLite error that escaped the command: say which file). */
function ledgerFileOf(args: string[]): string {
  const i = args.indexOf('--project-dir');
  const given = i >= 0 ? args[i + 1] : args.find((a) => a.startsWith('--project-dir='))?.slice('--project-dir='.length);
  return join(resolve(given ?? process.env.LOOM_PROJECT_DIR ?? process.env.CLAUDE_PROJECT_DIR ?? process.cwd()), '.loom', 'compliance', 'ledger.db');
}

function unknownCommand(name: string): void {
  // `loom --bogus`: an option where a command goes is an unknown option, not a command.
  const near = name.startsWith('-') ? undefined : closestCommand(name);
  const what = name.startsWith('-') ? 'unknown option' : 'unknown command';
  process.stderr.write(`loom: ${what} "${name.slice(0, 80)}"${near ? `; did you mean "loom ${near}"?` : ''}\nRun 'loom --help' for the list of commands.\n`);
  process.exitCode = EXIT.cannot;
}

main(process.argv.slice(2));
