// Crash injection for the chaos suite: `LOOM_FAULT_KILL_AT=<name>` makes the
// process kill itself with SIGKILL when it reaches that point (a real kill -9
// at an exact place, where a timed kill would only hit it by chance). Unset
// in every normal run; a point costs one environment lookup.
export function faultPoint(name: string): void {
  if (process.env.LOOM_FAULT_KILL_AT === name) process.kill(process.pid, 'SIGKILL');
}
