// The CLI's help as data: one entry per command, every option it accepts
// (a test holds each command's parser to this list), and the lookups that
// make `loom help <cmd>`, `loom <cmd> --help` and "did you mean" work.

import { RECORD_DECISIONS } from '../contract/types';
import { ENVIRONMENT } from './environment';
import { EXIT_CODES } from './exit-codes';

export interface CommandHelp {
  summary: string;
  usage: string[];
  options: [string, string][];
  examples?: string[];
}

const PROJECT: [string, string] = ['--project-dir DIR', 'the governed project (default: LOOM_PROJECT_DIR, CLAUDE_PROJECT_DIR, then the current folder)'];
const HARNESS_LIST = 'claude, codex, gemini, cursor, opencode, kilo, copilot, qwen, droid, crush';

export const COMMAND_HELP: Record<string, CommandHelp> = {
  init: {
    summary: 'set up this repository once: hooks, a starter policy, .gitignore',
    usage: ['loom init [--harness claude,codex,...] [--yes]'],
    options: [
      ['--harness LIST', `comma-separated agents to wire (${HARNESS_LIST}); default: those found in the repository, else claude`],
      ['--yes', 'ask nothing, take the defaults'],
      PROJECT,
    ],
    examples: ['loom init --harness claude,codex --yes'],
  },
  install: {
    summary: "merge loom's hooks into one harness's settings",
    usage: ['loom install --harness NAME [--scope project|user|managed] [--dry-run]', 'loom install --harness claude --mode http [--url URL]'],
    options: [
      ['--harness NAME', HARNESS_LIST],
      ['--scope SCOPE', 'project (committed, default), user (your home), managed (organisation-wide settings a user cannot switch off: Claude Code, Codex, Gemini CLI; they run the global install, so loom must be installed with npm install -g: without one, install exits 2 and writes nothing)'],
      ['--mode MODE', 'command (default) or http (Claude Code http hooks to loom serve)'],
      ['--url URL', 'the loom serve address for --mode http (default http://127.0.0.1:7077)'],
      ['--dry-run', 'print the settings that would be written, write nothing'],
      PROJECT,
    ],
  },
  uninstall: {
    summary: 'remove exactly what install added (the original file comes back when nothing else changed)',
    usage: ['loom uninstall --harness NAME [--scope project|user|managed] [--dry-run]'],
    options: [
      ['--harness NAME', HARNESS_LIST],
      ['--scope SCOPE', 'project (default), user or managed'],
      ['--mode MODE', 'accepted for symmetry with install'],
      ['--url URL', 'accepted for symmetry with install'],
      ['--dry-run', 'say what would change, write nothing'],
      PROJECT,
    ],
  },
  run: {
    summary: 'run hooks as a harness would (payload on stdin)',
    usage: ['loom run <hook-id>', 'loom run --event <Event>'],
    options: [
      ['--event EVENT', 'every hook registered for the event'],
      ['--config FILE', 'the registry (default: the pack\'s config/hooks.json; LOOM_CONFIG)'],
      ['--harness NAME', 'answer in this harness\'s dialect (default: detected from the payload; LOOM_HARNESS)'],
      PROJECT,
    ],
  },
  verify: {
    summary: 'check the ledger chain and checkpoints (exit 0 intact, 1 tampered, 2 cannot verify)',
    usage: ['loom verify [--json]', 'loom verify --bundle FILE [--json]', 'loom verify --team [--ledger ID] [--json]'],
    options: [
      ['--json', 'machine-readable result'],
      ['--bundle FILE', 're-verify an evidence bundle (from loom evidence --bundle) on any machine, without the project'],
      ['--team', 're-verify every ledger in the team store (forks, gaps)'],
      ['--team-url URL', 'the team store (default LOOM_TEAM_URL)'],
      ['--ledger ID', 'with --team: one ledger'],
      PROJECT,
    ],
  },
  history: {
    summary: 'list ledger records, newest last',
    usage: ['loom history [filters] [--json|--jsonl]', 'loom history rebuild', 'loom history --team [--repo R] [--user U] [--since T] [--limit N]'],
    options: [
      ['--team', 'read the team store (LOOM_TEAM_URL) instead of this project\'s ledger'],
      ['--team-url URL', 'the team store (default LOOM_TEAM_URL)'],
      ['--repo R', 'with --team: one repository'],
      ['--ledger ID', 'with --team: one ledger'],

      ['--event EVENT', 'only this event'],
      ['--session ID', 'only this session'],
      ['--user WHO', 'only records of this OS user, git email or harness user id'],
      ['--host NAME', 'only records made on this host (the actor\'s host name)'],
      ['--risk LEVEL', 'this level and above (none, low, medium, high, critical)'],
      ['--decision D', RECORD_DECISIONS.join(', ')],
      ['--hook ID', 'only this hook'],
      ['--since T', 'a date, a date and time (local time unless it ends in Z or an offset) or an age (30m, 2h, 7d, 1w)'],
      ['--until T', 'a date, a date and time, or an age'],
      ['--limit N', 'the latest N records'],
      ['--json', 'a JSON array (every field: the table fits the terminal, and a narrow one leaves out hook, session and risk)'],
      ['--jsonl', 'one JSON record per line'],
      PROJECT,
    ],
    examples: ['loom history --decision deny --since 7d', 'loom history --since "2026-11-30 18:35" (local time)', 'loom history --user dev@example.com --json'],
  },
  checkpoint: {
    summary: 'record the ledger head outside the database (exit 0 written, 1 a location could not be written, 2 no ledger or a corrupt one: run loom doctor, then loom recover)',
    usage: ['loom checkpoint [--json]'],
    options: [['--json', 'machine-readable result'], PROJECT],
  },
  explain: {
    summary: 'how the shell guard sees a command, rule by rule',
    usage: ['loom explain "<command>" [--json]', 'loom explain --rules [--json]'],
    options: [
      ['--rules', 'list every rule id a policy may set, with its action in this project'],
      ['--cwd DIR', 'the folder the command runs in (default: the project)'],
      ['--branch NAME', 'the current git branch to assume'],
      ['--json', 'machine-readable result'],
      PROJECT,
    ],
    examples: ['loom explain "git push --force origin main"'],
  },
  demo: {
    summary: 'replay a realistic agent session through the real hooks in a temp project',
    usage: ['loom demo [--project-dir DIR]'],
    options: [PROJECT],
  },
  validate: {
    summary: 'check every hook config found (Claude Code, Codex, OpenCode, loom)',
    usage: ['loom validate [--strict] [--json]'],
    options: [['--strict', 'warnings fail too'], ['--json', 'machine-readable result'], PROJECT],
  },
  serve: {
    summary: 'the HTTP hook endpoint (Claude Code http hooks, enterprise harnesses)',
    usage: ['loom serve [--port P] [--host H] [--project-dir D | --projects-root R] [--token-file F]', 'loom serve --team-url postgres://... --token-file CLIENTS [--policy-dir D] [--team-budget-ms MS] [--spool-dir D]'],
    options: [
      ['--port P', 'port (default 7077; LOOM_SERVE_PORT; 0 = any free port)'],
      ['--host H', 'address to bind (default 127.0.0.1; anything else needs a token)'],
      ['--projects-root R', 'serve every project under R (the payload\'s cwd picks it)'],
      ['--token-file F', 'require this bearer token (or LOOM_SERVE_TOKEN); with --team-url one "client-id token" per line'],
      ['--harness NAME', 'answer in this dialect (default: detected)'],
      ['--max-in-flight N', 'requests at once; past it a request waits up to 2 s, then a block (blocking events) or 503 (default 256)'],
      ['--max-per-client N', 'requests at once from one client: remote address, with or without the token (default a quarter of --max-in-flight)'],
      ['--request-timeout-ms MS', 'per request (default 10000)'],
      ['--team-url URL', 'stateless: every decision durable in the team store (PostgreSQL) before the answer; the project is the payload\'s cwd on the developer\'s machine'],
      ['--team-budget-ms MS', 'with --team-url: a store that does not confirm within MS is a block with the reason (default 2000)'],
      ['--spool-dir D', 'with --team-url: answers the store did not take wait here until it does (one folder per instance)'],
      ['--policy-dir D', 'with --team-url: the team\'s policy (D/.loom/policy.json); default the pack\'s defaults'],
      ['--config FILE', 'the registry (default: the pack\'s config/hooks.json)'],
      ['--socket PATH|auto', 'listen on a Unix socket (0600) instead of a port; auto = the project\'s default socket, which the hook wrappers try first (needs --project-dir)'],
      PROJECT,
    ],
  },
  daemon: {
    summary: 'a warm loom serve on the project\'s socket, which the hook wrappers try before starting Node',
    usage: ['loom daemon start|stop|status [--project-dir D] [--socket PATH] [--wait-ms MS] [--quiet]'],
    options: [
      ['--socket PATH', 'the socket (default: $XDG_RUNTIME_DIR/loom/p<hash>.sock, else /tmp/loom-<user>/; or LOOM_SOCKET)'],
      ['--wait-ms MS', 'start: how long to wait for the daemon to answer; stop: for it to exit (default 10000)'],
      ['--quiet', 'start: print nothing when the daemon runs (the hook wrappers\' auto-start, LOOM_DAEMON=auto)'],
      PROJECT,
    ],
  },
  report: {
    summary: 'a self-contained HTML compliance report',
    usage: ['loom report [--since T] [--until T] [--session S] [--user U] [--out FILE] [--fail-on deny,high]', 'loom report --team [--repo R] [--user U] [--since 7d] [--out FILE]'],
    options: [
      ['--user WHO', 'only records of this OS user, git email or harness user id (with --team: of the team store)'],
      ['--json', 'with --team: machine-readable'],
      ['--team', 'read the team store (LOOM_TEAM_URL) instead of this project\'s ledger'],
      ['--team-url URL', 'the team store (default LOOM_TEAM_URL)'],
      ['--repo R', 'with --team: one repository'],
      ['--ledger ID', 'with --team: one ledger'],

      ['--since T', 'a date, a date and time (local time unless it ends in Z or an offset) or an age (30m, 2h, 7d)'],
      ['--until T', 'a date, a date and time, or an age'],
      ['--session ID', 'one session only'],
      ['--out FILE', 'where to write (default .loom/reports/compliance.html)'],
      ['--fail-on LIST', 'exit 1 when any is found: tampered, deny (a denied action), high (a high or critical risk event); a tampered ledger always exits 1'],
      PROJECT,
    ],
  },
  evidence: {
    summary: 'Markdown evidence for a pull request',
    usage: ['loom evidence [--base main] [--spec specs/<spec>] [--out FILE] [--bundle FILE] [--fail-on deny,high]', 'loom evidence --team --repo R [--branch B] [--since T] [--out FILE]'],
    options: [
      ['--team', 'the evidence from the team store: every ledger of --repo (and --branch), re-verified'],
      ['--repo R', 'with --team: the normalized remote (github.com/org/repo)'],
      ['--branch B', 'with --team: one branch'],
      ['--team-url URL', 'with --team: the team store (default LOOM_TEAM_URL or team.url in the policy)'],
      ['--base REF', 'the sessions of the current branch since it left REF (a pull request\'s evidence)'],
      ['--spec DIR', 'the sessions that wrote handoffs for this spec'],
      ['--since T', 'a date, a date and time (local time unless it ends in Z or an offset) or an age'],
      ['--until T', 'a date, a date and time, or an age'],
      ['--out FILE', 'write to a file instead of stdout'],
      ['--bundle FILE', 'also write the records and checkpoints a reviewer needs to re-verify with loom verify --bundle FILE'],
      ['--fail-on LIST', 'exit 1 when any is found: tampered, deny, high (comma-separated); a tampered ledger always exits 1'],
      PROJECT,
    ],
  },
  fold: {
    summary: 'copy the journal into the database and bring history.json up to date (exit 2: the database is corrupt, run loom doctor, then loom recover)',
    usage: ['loom fold [--quiet]'],
    options: [['--quiet', 'print nothing when all is well'], PROJECT],
  },
  recover: {
    summary: 'replace a corrupt ledger database: set it aside (never deleted), start a new one anchored to the old chain, re-fold the journal',
    usage: ['loom recover [--json]', 'loom recover --acknowledge "<reason>" [--json]'],
    options: [
      ['--acknowledge R', 'accept the unreadable gaps a recovery left (they stay in the file set aside): appends a chained record naming the gap ranges, R and who; loom verify then says "recovered-with-gaps (acknowledged seq N by X: R)" and exits 0, still listing the gaps. Exit 1 when there is nothing to acknowledge or verify finds anything else'],
      ['--json', 'machine-readable result'],
      PROJECT,
    ],
  },
  erase: {
    summary: 'erase a leaked value from every copy under .loom/; verify still proves the chain',
    usage: ['loom erase --seq N --path $.<kind>.<field> --reason TEXT', 'loom erase --match - --reason TEXT   (the value on stdin)', 'loom erase --match-file FILE --reason TEXT'],
    options: [
      ['--seq N', 'the record that holds the value'],
      ['--path P', 'where in it: a JSON path under the record\'s kind object'],
      ['--match -', 'erase the value read from stdin wherever it stands in a record value'],
      ['--match-file FILE', 'the same, with the value read from a file'],
      ['--reason TEXT', 'why (required; recorded in the erasure record)'],
      ['--json', 'machine-readable result'],
      PROJECT,
    ],
  },
  ship: {
    summary: 'ship the local ledger to the team store (idempotent, resumable)',
    usage: ['loom ship [--watch] [--team-url URL]'],
    options: [
      ['--team-url URL', 'the team store (default LOOM_TEAM_URL or team.url in the policy)'],
      ['--watch', 'keep shipping as records arrive'],
      ['--otlp URL', 'also post new records to an OTLP/HTTP collector (cursor in .loom/compliance/otlp-cursor.json)'],
      ['--interval MS', 'with --watch: how often to look'],
      ['--batch N', 'records per transaction'],
      ['--background', 'run detached'],
      ['--json', 'machine-readable result'],
      ['--quiet', 'print nothing when all is well'],
      PROJECT,
    ],
  },
  export: {
    summary: 'write records out as JSONL, OTLP JSON or CEF (local ledger or team store), seq and hash included',
    usage: ['loom export --format jsonl|otlp|cef [--since T] [--until T] [--out FILE]', 'loom export --team --format otlp [--repo R] [--user U] [--otlp-url URL]'],
    options: [
      ['--format F', 'jsonl, otlp (one ExportLogsServiceRequest per line) or cef'],
      ['--since T', 'records at or after T (ISO date or an age such as 7d)'],
      ['--until T', 'records before T'],
      ['--out FILE', 'write to FILE (default: stdout)'],
      ['--team', 'read the team store instead of the local ledger'],
      ['--team-url URL', 'the team store (default LOOM_TEAM_URL or team.url in the policy)'],
      ['--repo R', 'with --team: one repository'],
      ['--user U', 'with --team: one user'],
      ['--ledger ID', 'with --team: one ledger'],
      ['--otlp-url URL', 'with --format otlp: post to an OTLP/HTTP collector instead of writing'],
      PROJECT,
    ],
  },
  team: {
    summary: "create the team store's schema, roles and partitions (PostgreSQL)",
    usage: ['loom team init [--team-url URL]'],
    options: [
      ['--team-url URL', 'the team store (default LOOM_TEAM_URL)'],
      ['--months-back N', 'monthly partitions to create before now (default 12)'],
      ['--months-ahead N', 'monthly partitions to create ahead (default 24)'],
      ['--writer NAME', 'create a login with the writer role'],
      ['--writer-password-file F', "the writer's password"],
      ['--reader NAME', 'create a login with the reader role'],
      ['--reader-password-file F', "the reader's password"],
      PROJECT,
    ],
  },
  doctor: {
    summary: 'check the installation, one line per check, each failure with its fix',
    usage: ['loom doctor [--json]'],
    options: [['--json', 'machine-readable result'], PROJECT],
  },
};

export const GLOBAL_OPTIONS: [string, string][] = [
  ['-h, --help', 'help for loom or for a command'],
  ['-v, --version', 'print the version'],
  ['--no-color', 'no colour, whatever the terminal and environment say (--color: colour even when piped)'],
];

export function commandHelp(name: string): string {
  const h = COMMAND_HELP[name];
  const width = Math.max(...h.options.map(([o]) => o.length), 10);
  const lines = [`loom ${name}: ${h.summary}`, '', 'Usage:', ...h.usage.map((u) => `  ${u}`), '', 'Options:', ...[...h.options, ['-h, --help', 'show this help'] as [string, string]].map(([o, d]) => `  ${o.padEnd(width)}  ${d}`)];
  if (h.examples?.length) lines.push('', 'Examples:', ...h.examples.map((e) => `  ${e}`));
  return lines.join('\n') + '\n';
}

export function overallHelp(version: string): string {
  const names = Object.keys(COMMAND_HELP);
  const width = Math.max(...names.map((n) => n.length));
  return [
    `loom ${version}: governance hooks and a tamper-evident audit ledger for AI coding agents`,
    '',
    'Usage: loom <command> [options]',
    '',
    'Commands:',
    ...names.map((n) => `  ${n.padEnd(width)}  ${COMMAND_HELP[n].summary}`),
    '',
    'Options:',
    ...GLOBAL_OPTIONS.map(([o, d]) => `  ${o.padEnd(14)}  ${d}`),
    '',
    'Colour: on a terminal only; NO_COLOR=1 turns it off, FORCE_COLOR=1 on (FORCE_COLOR=0 off).',
    '',
    'Environment:',
    ...ENVIRONMENT.map(([n, d]) => `  ${n}\n      ${d}`),
    '',
    'Exit status (every command but run, which answers in its harness\'s codes):',
    ...EXIT_CODES.map(([c, d]) => `  ${c}  ${d}`),
    '',
    "Run 'loom help <command>' or 'loom <command> --help' for a command's options.",
    '',
  ].join('\n');
}

/** Edit distance (insert, delete, substitute, swap of neighbours), for "did you mean". */
export function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length];
}

/** The closest command, if it is close enough to be what was meant (or the typed text is its prefix). */
export function closestCommand(typed: string): string | undefined {
  const t = typed.toLowerCase().slice(0, 64);
  let best: string | undefined;
  let bestD = Infinity;
  for (const n of Object.keys(COMMAND_HELP)) {
    const dd = n.startsWith(t) && t.length >= 2 ? 0 : distance(t, n);
    if (dd < bestD) [best, bestD] = [n, dd];
  }
  return bestD <= Math.max(1, Math.floor(t.length / 3)) ? best : undefined;
}
