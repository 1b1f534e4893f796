// The environment variables loom reads, as data: `loom --help` prints the
// table and a test checks that every LOOM_* variable the source reads is in
// it (or among the internal ones), so the help cannot drift from the code.

export const ENVIRONMENT: [name: string, what: string][] = [
  ['LOOM_PROJECT_DIR', 'the project to record to (else the hook payload\'s cwd, then the nearest folder with .loom or .git)'],
  ['LOOM_HARNESS', 'the harness dialect of a hook call when the payload does not say it'],
  ['LOOM_CONFIG', 'the hook registry to use instead of the package\'s config/hooks.json'],
  ['LOOM_LEDGER_KEY, LOOM_LEDGER_KEY_FILE', 'a key that makes the chain HMAC-SHA-256 (keep it where the agent cannot read it)'],
  ['LOOM_CHECKPOINT_DIR', 'where chain checkpoints are copied, outside the agent\'s reach'],
  ['LOOM_CHECKPOINT_EVERY', 'records between checkpoints (default 100)'],
  ['LOOM_FOLD_EVERY', 'journal records between folds into the database (default 100)'],
  ['LOOM_LOCK_WAIT_MS', 'how long a hook waits for the journal lock (default 20000, at most 25000)'],
  ['LOOM_STDIN_TIMEOUT_MS', 'how long a hook waits for its payload (default 5000, at most 25000)'],
  ['LOOM_TEAM_URL, LOOM_TEAM_PASSWORD_FILE', 'the team store (postgres://...) and a file holding its password'],
  ['LOOM_SHIP_ON_STOP', '0: do not ship to the team store at the end of a session'],
  ['LOOM_OTLP_ENDPOINT', 'an OpenTelemetry collector (OTLP/HTTP) for continuous export'],
  ['LOOM_SERVE_TOKEN, LOOM_SERVE_PORT', 'loom serve: the bearer token clients must send, and its port (default 7077)'],
  ['LOOM_SOCKET, LOOM_DAEMON, LOOM_FAST, LOOM_FAST_TIMEOUT', 'the warm daemon: its socket, auto-start (auto), the opt-in fast path (1), seconds the fast path waits for it'],
  ['LOOM_MANAGED_SETTINGS_DIR', 'the folder of managed (organisation) settings instead of the system one'],
  ['LOOM_TRACE', '1: print where a hook call spends its time, on stderr'],
  ['NO_COLOR, FORCE_COLOR', 'colour off (any value), or on even when piped (FORCE_COLOR=0: off)'],
];

/** Read by loom but not for users to set: test hooks and values loom's own commands set for the runner. */
export const INTERNAL_ENVIRONMENT = ['LOOM_FAULT_KILL_AT', 'LOOM_CODE_CACHE_REFRESH', 'LOOM_HOOK_SCOPE', 'LOOM_INTEGRITY_CHECK_MS'];
