// Calls that start a process (or a thread of execution that outlives the
// call) without waiting for it, per language: inside an endless loop or a
// function that calls itself, they are a fork bomb. Synchronous runs
// (os.system, execSync, system) wait for their child and are not listed.

export const FORK_CALLS: Record<string, string[]> = {
  python: ['os.fork', 'os.forkpty', 'pty.fork', 'subprocess.Popen', 'multiprocessing.Process', 'os.spawnv', 'os.spawnve', 'os.spawnvp', 'os.spawnvpe', 'os.spawnl', 'os.spawnle', 'os.spawnlp', 'os.spawnlpe', 'os.posix_spawn', 'os.posix_spawnp', 'asyncio.create_subprocess_exec', 'asyncio.create_subprocess_shell', 'threading.Thread', 'Popen', 'fork', 'Process'],
  node: ['child_process.fork', 'child_process.spawn', 'child_process.exec', 'child_process.execFile', 'cluster.fork', 'worker_threads.Worker', 'Worker', 'Bun.spawn', 'Deno.Command', 'Deno.run', 'fork', 'spawn', 'exec', 'execFile', 'execa'],
  perl: ['fork', 'CORE::fork', 'POSIX::fork', 'Proc::Fork::run_fork', 'threads->create', 'threads->new'],
  ruby: ['fork', 'Process.fork', 'Kernel.fork', 'spawn', 'Process.spawn', 'Kernel.spawn', 'IO.popen', 'Thread.new', 'Process.detach'],
  php: ['pcntl_fork', 'proc_open', 'popen', 'pcntl_exec'],
  lua: ['posix.fork', 'unistd.fork', 'io.popen'],
  julia: ['run', 'Threads.@spawn', '@async'],
  r: ['parallel::mcparallel', 'mcparallel', 'system2'],
};

/** Loop conditions that never turn false (after `while`/`until` with its parentheses removed). */
export const ENDLESS_WHILE = ['True', 'true', '1', 'not False', 'not 0', '!false', '!0', '!!1', '1==1', 'True==True', '1<2', '!null', '!undefined', '!nil'];
export const ENDLESS_UNTIL = ['False', 'false', '0', 'nil', 'null', 'undefined', '1==0', '!1', '!true'];
/** Iterables that never end (`for _ in iter(int, 1)`, `itertools.count()`). */
export const ENDLESS_ITERABLES = /^(?:iter\(\s*(?:int|str|list|lambda)|(?:itertools\.)?count\(|(?:itertools\.)?repeat\([^,()]*\)$|(?:itertools\.)?cycle\(|\(?1\.\.\)|1\.\.Float::INFINITY|Float::INFINITY|loop\b)/;
/**
 * A shell loop that starts a background job on each of at least this many passes, with no `wait` inside
 * it, is process exhaustion (`for i in $(seq 1 1000000); do sleep 9 & done`); fewer are a batch of jobs.
 */
export const HUGE_LOOP_COUNT = 5000;

/** Calls that run their function again and again without end. */
export const REPEATERS = ['setInterval', 'setImmediate', 'process.nextTick', 'loop', 'Thread.new', 'every'];

/**
 * Output that never ends: `yes`, `seq inf`, `cat`/`tr` of an endless device, `tail -f`. A process started for
 * each of its lines (`yes | xargs -P0`, `yes | while read; do sleep 9 & done`) is started without end.
 */
export const ENDLESS_DEVICE = /^\/dev\/(?:zero|u?random)$/;
export function endlessOutput(argv: readonly string[]): boolean {
  const n = argv[0]?.slice(argv[0].lastIndexOf('/') + 1) ?? '';
  if (n === 'yes') return true;
  if (n === 'seq') return /^[+]?inf(?:inity)?$/i.test(argv[argv.length - 1] ?? '');
  if (n === 'cat' || n === 'tr') return argv.some((x) => ENDLESS_DEVICE.test(x));
  if (n === 'tail') return argv.some((x) => /^-[a-zA-Z]*[fF]$|^--follow/.test(x));
  return false;
}
