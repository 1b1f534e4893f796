// `loom <command>`: the runner and the reviewer commands. Each command lives
// in its own module under commands/.
import { join } from 'node:path';
import { KeyError } from '../ledger/chain';
import { QueryError } from '../ledger/query';
import { classifySqliteError, LedgerError } from '../ledger/store';
import { oneLineError } from '../runner/fail-closed';
import { PolicyError } from '../policy/policy';
import { SettingsError } from '../install/merge';
import { ScopeError } from '../install/targets';
import { exitNow } from '../runner/isolation';
import { runAndExit } from '../runner/main';
import { ownValue } from '../util/own';
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
import { teamCommand } from './commands/team';
import { TeamConfigError } from '../team/config';
import { TeamStoreError } from '../team/pg';
import { foldCommand } from './commands/fold';
import { FlagError } from './flags';

const USAGE = `usage: loom <command> [options]
commands:
  init [--harness claude,codex,...] [--yes]   set up this repository once: hooks, starter policy, .gitignore
  run <hook-id> | run --event <Event>    run hooks as a harness would (payload on stdin)
  verify [--project-dir D] [--json]      check the ledger chain and checkpoints (0 intact, 1 tampered, 2 cannot verify)
  history [--event E] [--session S] [--risk R] [--decision D] [--hook H]
          [--since T] [--until T] [--limit N] [--json|--jsonl]
  history rebuild                        regenerate history.json from the ledger
  checkpoint [--project-dir D]           record the ledger head outside the database
  fold [--project-dir D] [--quiet]       copy the journal into the database, update history.json
  explain "<command>" [--json]           how the shell guard sees a command, rule by rule
  demo [--project-dir D]                 replay a realistic agent session through the real hooks
  install --harness claude|codex|gemini|cursor|opencode [--scope project|user|managed] [--dry-run]
  uninstall --harness ...                remove exactly what install added
  validate [--strict] [--json]           check every hook config found (claude, codex, opencode, native, loom)
  serve [--port P] [--host H] [--project-dir D] [--token-file F]   the HTTP hook endpoint
  report [--since T] [--until T] [--session S] [--out FILE]   self-contained HTML report
  evidence [--spec specs/<spec>] [--out FILE]   Markdown evidence for a pull request
  doctor [--json]                        check the installation, one line per check
  team init [--team-url URL]             create the team store's schema, roles, partitions (PostgreSQL)
  ship [--watch] [--project-dir D]       ship the local ledger to the team store (LOOM_TEAM_URL)
  verify --team [--ledger ID] [--json]   re-verify every ledger in the team store (forks, gaps)
  report --team [--repo R] [--user U] [--since 7d] [--out F]   team report (HTML) from the store
  history --team [--repo R] [--user U] [--since T] [--limit N] [--json|--jsonl]
`;

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
  team: teamCommand,
  fold: foldCommand,
};

// `loom history | head` closes the pipe early: that is not an error.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

function main(argv: string[]): void {
  const [cmd, ...rest] = argv;
  if (cmd === 'run') {
    runAndExit(rest, { hooksDir: join(__dirname, '..', 'hooks') });
    return;
  }
  if (cmd === undefined || cmd === 'help' || cmd === '--help' || cmd === '-h') {
    process.stdout.write(USAGE);
    process.exitCode = cmd === undefined ? 1 : 0;
    return;
  }
  const fn = ownValue(COMMANDS, cmd);
  if (!fn) {
    process.stderr.write(`loom: unknown command "${cmd}"\n${USAGE}`);
    process.exitCode = 1;
    return;
  }
  const fail = (e: unknown) => {
    if (e instanceof FlagError || e instanceof QueryError || e instanceof LedgerError || e instanceof KeyError || e instanceof PolicyError || e instanceof SettingsError || e instanceof ScopeError || e instanceof TeamConfigError || e instanceof TeamStoreError) {
      process.stderr.write(`loom ${cmd}: ${e.message}\n`);
      process.exitCode = e instanceof LedgerError && e.code === 'missing' ? 2 : 1;
      return;
    }
    // Anything else is still one line naming what went wrong, never a stack trace of the bundle.
    const err = e as { code?: unknown };
    const line = typeof err?.code === 'string' && err.code.startsWith('SQLITE_') ? classifySqliteError(e, 'the ledger database').message : oneLineError(e);
    process.stderr.write(`loom ${cmd}: ${line}\n`);
    process.exitCode = cmd === 'verify' ? 2 : 1;
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

main(process.argv.slice(2));
