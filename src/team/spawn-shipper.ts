// The opportunistic shipper of the hook path: at SessionEnd and Stop, when a
// team store is configured, the runner starts `loom ship --background` as a
// detached child (own process group, no stdio, unref'd) after the answer is
// written, and exits without waiting for it. The harness sees the answer as
// fast as without a team store; the child ships, one per project at a time
// (ship.lock), and logs problems to .loom/compliance/ship.log. No pg here.
import { join } from 'node:path';
import { teamConfigured } from './config';

export const SHIP_EVENTS = new Set(['SessionEnd', 'Stop']);

export function wantsShipper(event: string, projectDir: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (!SHIP_EVENTS.has(event) || env.LOOM_SHIP_ON_STOP === '0') return false;
  return teamConfigured(projectDir, env);
}

/** Starts the detached shipper; never throws, never waits. */
export function spawnShipper(projectDir: string, packRoot: string): void {
  try {
    // node:child_process, not execa: this runs in the hook process (the runner, after the answer), where
    // every module loaded costs each tool call; the CLI and tests use execa.
    const cp = require('node:child_process') as typeof import('node:child_process');
    const child = cp.spawn(process.execPath, [join(packRoot, 'bin', 'loom.js'), 'ship', '--background', '--project-dir', projectDir], {
      detached: true,
      stdio: 'ignore',
      cwd: projectDir,
      windowsHide: true,
    });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // shipping is opportunistic: loom ship --watch or loom serve ships later
  }
}
