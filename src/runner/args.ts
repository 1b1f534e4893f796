// Command line of the runner: `<hook-id>` or `--event <Event>`, plus
// --config, --project-dir, --harness (each with its LOOM_* variable).
export interface RunnerArgs {
  hookId?: string;
  event?: string;
  config?: string;
  projectDir?: string;
  harness?: string;
}

export const RUNNER_USAGE =
  'usage: run-hook.js <hook-id> | --event <Event> [--config FILE] [--project-dir DIR] [--harness claude|codex|gemini|cursor|docker-agent|enterprise|auto]';

export class UsageError extends Error {}

export function parseRunnerArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): RunnerArgs {
  const out: RunnerArgs = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const flag = eq > 0 ? a.slice(0, eq) : a;
    const value = (): string => {
      if (eq > 0) return a.slice(eq + 1);
      const v = argv[++i];
      if (v === undefined || v === '') throw new UsageError(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case '--event':
        out.event = value();
        break;
      case '--config':
        out.config = value();
        break;
      case '--project-dir':
        out.projectDir = value();
        break;
      case '--harness':
        out.harness = value();
        break;
      default:
        if (a.startsWith('-')) throw new UsageError(`unknown option ${a}`);
        if (out.hookId) throw new UsageError(`unexpected argument "${a}" (hook id already given: ${out.hookId})`);
        out.hookId = a;
    }
  }
  if (!out.hookId && !out.event) throw new UsageError('give a hook id or --event <Event>');
  if (out.hookId && out.event) throw new UsageError('give either a hook id or --event, not both');
  out.config ??= env.LOOM_CONFIG || undefined;
  out.projectDir ??= env.LOOM_PROJECT_DIR || undefined;
  out.harness ??= env.LOOM_HARNESS || undefined;
  return out;
}
