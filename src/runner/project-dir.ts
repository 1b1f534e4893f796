// The governed project: flag or LOOM_PROJECT_DIR, then the harness's own
// variables, then the payload's cwd, then the process cwd.
import { isAbsolute, resolve } from 'node:path';

export function resolveProjectDir(flag: string | undefined, payload: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): string {
  // The flag first: reading process.env costs a native call per variable, and the server passes the flag on every request.
  if (flag) return resolve(flag);
  for (const c of [env.CLAUDE_PROJECT_DIR, env.GEMINI_PROJECT_DIR, env.CURSOR_PROJECT_DIR, env.FACTORY_PROJECT_DIR, env.CRUSH_PROJECT_DIR]) if (c) return resolve(c);
  const cwd = payload.cwd;
  if (typeof cwd === 'string' && cwd.length > 0 && cwd.length < 4096 && isAbsolute(cwd) && !cwd.includes('\0')) return resolve(cwd);
  return process.cwd();
}
