// Archives made and unpacked on the same line: `tar -cf t.tar -C /tmp
// --transform 's,^s.json,.claude/settings.json,' s.json && tar -xf t.tar`
// writes .claude/settings.json, and `tar -C /tmp/z -cf - .loom | tar -xf -
// --recursive-unlink` replaces .loom with an empty folder. The members a tar
// puts in an archive (after its --transform expressions) are remembered by
// archive path (`-` for a pipe), and an extraction writes each of them where
// it unpacks, removing what is there first with --recursive-unlink.
import { posix } from 'node:path';
import type { Analyzer } from '../analyze';
import { deletesPath, writesPath } from '../path-rules';
import type { Rule } from '../rules';

const TARS = ['tar', 'gtar', 'bsdtar'];
/** Short options (in a cluster) that take the next word. */
const SHORT_WITH_ARG = 'fCTXbKNVgHIF';
const LONG_WITH_ARG = new Set(['--file', '--directory', '--transform', '--xform', '--exclude', '--files-from', '--exclude-from', '--format', '--owner', '--group', '--mode', '--mtime', '--label', '--newer', '--after-date', '--use-compress-program', '--to-command', '--checkpoint-action', '--index-file', '--listed-incremental', '--blocking-factor', '--starting-file', '--newer-mtime', '--info-script', '--new-volume-script', '--rsh-command', '--volno-file', '--suffix']);

interface TarCall {
  mode?: 'c' | 'x';
  file?: string;
  dir?: string;
  transforms: string[];
  unlink: boolean;
  members: string[];
}

function parseTar(argv: readonly string[]): TarCall {
  const t: TarCall = { transforms: [], unlink: false, members: [] };
  const value = (opt: string, v: string | undefined) => {
    if (v === undefined) return;
    if (opt === 'f' || opt === '--file') t.file = v;
    else if (opt === 'C' || opt === '--directory') t.dir = v;
    else if (opt === '--transform' || opt === '--xform') t.transforms.push(v);
  };
  for (let k = 1; k < argv.length; k++) {
    const a = argv[k];
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq > 0 ? a.slice(0, eq) : a;
      if (name === '--create') t.mode = 'c';
      else if (name === '--extract' || name === '--get') t.mode = 'x';
      else if (name === '--recursive-unlink' || name === '--unlink-first') t.unlink = true;
      if (eq > 0) value(name, a.slice(eq + 1));
      else if (LONG_WITH_ARG.has(name)) value(name, argv[++k]);
      continue;
    }
    // A first word without a dash is a cluster too (`tar cf x.tar dir`).
    if ((a.startsWith('-') && a.length > 1) || (k === 1 && /^[A-Za-z]+$/.test(a))) {
      const letters = a.startsWith('-') ? a.slice(1) : a;
      for (let i = 0; i < letters.length; i++) {
        const c = letters[i];
        if (c === 'c') t.mode = 'c';
        else if (c === 'x') t.mode = 'x';
        else if (c === 'U') t.unlink = true;
        if (SHORT_WITH_ARG.includes(c)) {
          // The rest of the cluster, or the next word, is its value (`-fx.tar`, `-f x.tar`).
          value(c, i + 1 < letters.length ? letters.slice(i + 1) : argv[++k]);
          break;
        }
      }
      continue;
    }
    t.members.push(a);
  }
  return t;
}

/** A member name after GNU tar's sed-like --transform expressions (`s,^a,b,`, flags ignored). */
function transformed(name: string, transforms: string[]): string {
  let out = name;
  for (const x of transforms) {
    const d = x[1];
    if (x[0] !== 's' || !d) continue;
    const parts = x.slice(2).split(d);
    if (parts.length < 2) continue;
    try {
      out = out.replace(new RegExp(parts[0].slice(0, 200)), parts[1]);
    } catch {
      // an expression JS cannot read: the name stays
    }
  }
  return out;
}

const made = new WeakMap<Analyzer, Map<string, string[]>>();

const tarArchives: Rule = (r) => {
  const t = parseTar(r.argv);
  const key = (f: string | undefined) => (!f || f === '-' ? '-' : posix.resolve(r.cwd, f));
  let m = made.get(r.analyzer);
  if (t.mode === 'c') {
    if (!m) made.set(r.analyzer, (m = new Map()));
    if (m.size < 32) m.set(key(t.file), t.members.slice(0, 64).map((n) => transformed(n.replace(/\/+$/, ''), t.transforms)));
    return;
  }
  if (t.mode !== 'x') return;
  // Reading a pipe: the archive the stage before it wrote to stdout.
  const members = m?.get(key(t.file)) ?? (t.transforms.length ? t.members : []);
  const base = t.dir ?? '.';
  for (const raw of members) {
    const name = transformed(raw, t.transforms);
    if (!name || name.startsWith('/') || name.split('/').includes('..')) continue;
    const target = posix.join(base, name);
    writesPath(r.analyzer, target, r.cwd, r.segment);
    if (t.unlink) deletesPath(r.analyzer, target, r.cwd, r.segment, { recursive: true, verb: 'replaces' });
  }
};
tarArchives.names = TARS;

export const ARCHIVE_RULES: Rule[] = [tarArchives];
