// The governed project: flag or LOOM_PROJECT_DIR, then the harness's own
// variables, then the payload's cwd, then the process cwd.
import { isAbsolute, resolve } from 'node:path';

export function resolveProjectDir(flag: string | undefined, payload: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): string {
  const candidates = [flag, env.CLAUDE_PROJECT_DIR, env.GEMINI_PROJECT_DIR, env.CURSOR_PROJECT_DIR];
  for (const c of candidates) if (c) return resolve(c);
  const cwd = payload.cwd;
  if (typeof cwd === 'string' && cwd.length > 0 && cwd.length < 4096 && isAbsolute(cwd) && !cwd.includes('\0')) return resolve(cwd);
  return process.cwd();
}
