// The handoff writer: the only code besides the ledger that writes files.
// specs/<spec>/handoffs/compact-<UTC yyyyMMddTHHmmssSSS>-<id>.json, created
// exclusively (never overwritten: a name taken in the same millisecond gets
// another id), and always inside specs/.
import { closeSync, openSync, realpathSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { newId } from '../util/ids';
import { inside, SpecPathError } from './spec';
import { mkdirBounded } from '../util/bounded-mkdir';

export function utcStamp(d: Date): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}T${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}${p(d.getUTCMilliseconds(), 3)}`;
}

export function writeHandoff(projectDir: string, specDir: string, content: Record<string, unknown>, now = new Date()): string {
  const specs = join(projectDir, 'specs');
  const dir = join(specDir, 'handoffs');
  if (!inside(specs, dir)) throw new SpecPathError(`handoff folder ${dir} is outside specs/`);
  mkdirBounded(dir);
  // After creation, the real path must still be under the real specs/ (no symlink escape).
  if (!inside(realpathSync(specs), realpathSync(dir))) throw new SpecPathError(`handoff folder ${dir} resolves outside specs/`);
  for (let attempt = 0; attempt < 10; attempt++) {
    const file = join(dir, `compact-${utcStamp(now)}-${newId(10)}.json`);
    let fd: number;
    try {
      fd = openSync(file, 'wx', 0o644);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw e;
    }
    try {
      writeSync(fd, JSON.stringify({ ...content, handoff_path: file }, null, 2) + '\n');
    } finally {
      closeSync(fd);
    }
    return file;
  }
  throw new Error(`could not find a free handoff name in ${dir}`);
}
