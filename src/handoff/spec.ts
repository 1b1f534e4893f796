// Which spec a compaction handoff belongs to: a spec named in the payload,
// else .loom/active-spec, else the most recently modified folder in specs/,
// else specs/_session-<id>. A name that would leave specs/ is refused.
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';

export class SpecPathError extends Error {}

function safeName(raw: string, specsDir: string): string {
  const name = raw.trim().replace(/^specs[\\/]+/, '').replace(/[\\/]+$/, '');
  if (!name || name.includes('\0')) throw new SpecPathError(`spec name ${JSON.stringify(raw)} is empty or invalid`);
  if (isAbsolute(raw.trim()) || name.split(/[\\/]/).some((p) => p === '..' || p === '')) throw new SpecPathError(`spec name ${JSON.stringify(raw)} would leave specs/ (absolute paths and .. are refused)`);
  if (name.length > 200) throw new SpecPathError('spec name longer than 200 characters');
  // A symlink (the spec folder or one above it) must not lead out of specs/.
  let cur = specsDir;
  for (const part of name.split(/[\\/]/)) {
    cur = join(cur, part);
    if (existsSync(cur) && lstatSync(cur).isSymbolicLink()) {
      const real = realpathSync(cur);
      const rel = relative(realpathSync(specsDir), real);
      if (rel.startsWith('..') || isAbsolute(rel)) throw new SpecPathError(`spec ${JSON.stringify(raw)} is a symlink that points out of specs/ (${real})`);
    }
  }
  return name;
}

export interface SpecChoice {
  name: string;
  dir: string;
  source: 'payload' | 'active-spec' | 'latest-folder' | 'session';
}

export function chooseSpec(projectDir: string, payload: Record<string, unknown>, sessionId: string): SpecChoice {
  const specsDir = join(projectDir, 'specs');
  const named = [payload.spec, payload.spec_dir, payload.specDir, payload.spec_name].find((v) => typeof v === 'string' && v.trim()) as string | undefined;
  if (named) {
    const name = safeName(named, specsDir);
    return { name, dir: join(specsDir, name), source: 'payload' };
  }
  const activeFile = join(projectDir, '.loom', 'active-spec');
  if (existsSync(activeFile)) {
    const text = readFileSync(activeFile, 'utf8').trim();
    if (text) {
      const name = safeName(text, specsDir);
      return { name, dir: join(specsDir, name), source: 'active-spec' };
    }
  }
  if (existsSync(specsDir)) {
    let best: { name: string; mtime: number } | undefined;
    for (const e of readdirSync(specsDir, { withFileTypes: true })) {
      if (!e.isDirectory() || e.name.startsWith('.')) continue;
      const m = statSync(join(specsDir, e.name)).mtimeMs;
      if (!best || m > best.mtime) best = { name: e.name, mtime: m };
    }
    if (best) return { name: best.name, dir: join(specsDir, best.name), source: 'latest-folder' };
  }
  const safeSession = (sessionId || 'unknown').replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 80);
  return { name: `_session-${safeSession}`, dir: join(specsDir, `_session-${safeSession}`), source: 'session' };
}

/** True when `file` resolves inside `dir` (after symlinks where they exist). */
export function inside(dir: string, file: string): boolean {
  const rel = relative(resolve(dir), resolve(file));
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) && !rel.startsWith(sep);
}
