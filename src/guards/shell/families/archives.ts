// Archives made and unpacked on the same line: `tar -cf t.tar -C /tmp
// --transform 's,^s.json,.claude/settings.json,' s.json && tar -xf t.tar`
// writes .claude/settings.json, and `tar -C /tmp/z -cf - .loom | tar -xf -
// --recursive-unlink` replaces .loom with an empty folder. The members a tar
// puts in an archive (after its --transform expressions) are remembered by
// archive path (`-` for a pipe), and an extraction writes each of them where
// it unpacks, removing what is there first with --recursive-unlink.
// An archive of unknown content (not made on the line) is judged by where it
// unpacks: over home, the root, a credential or harness folder or .git, or
// over the project root with overwriting asked for (tables/archives.ts).
import { posix } from 'node:path';
import type { Analyzer } from '../analyze';
import { classify, credentialFolderIn, deletesPath, resolveTarget, under, within, writesPath } from '../path-rules';
import type { Rule, RuleContext } from '../rules';
import { EXTRACTORS, type Extractor } from '../tables/archives';
import { TEMP_DIRS } from '../tables/paths';

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
  /** --overwrite: existing files are written over in place. */
  overwrite: boolean;
  /** -k, --keep-old-files, --skip-old-files: existing files are kept. */
  keep: boolean;
  members: string[];
}

function parseTar(argv: readonly string[]): TarCall {
  const t: TarCall = { transforms: [], unlink: false, overwrite: false, keep: false, members: [] };
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
      else if (name === '--overwrite' || name === '--overwrite-dir') t.overwrite = true;
      else if (name === '--keep-old-files' || name === '--skip-old-files' || name === '--keep-newer-files' || name === '--keep-directory-symlink') t.keep = true;
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
        else if (c === 'k') t.keep = true;
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
  // An archive not made on the line is of unknown content: judged by where it unpacks.
  if (!m?.has(key(t.file))) extractsOver(r, t.dir, (t.overwrite || t.unlink) && !t.keep, r.name);
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

/** Where an extractor unpacks, and whether it writes over what is there (tables/archives.ts). */
function extraction(spec: Extractor, argv: readonly string[]): { dir?: string; forced: boolean } | undefined {
  let dir: string | undefined;
  let extracting = spec.mode === undefined;
  let forced = false;
  let kept = false;
  const ops: string[] = [];
  for (let k = 1; k < argv.length; k++) {
    const a = argv[k];
    const glued = spec.dirGlued.find((g) => a.startsWith(g) && a.length > g.length);
    if (glued) dir = a.slice(glued.length);
    else if (spec.dirOptions.includes(a)) dir = argv[++k];
    else if (a.startsWith('--') && a.includes('=') && spec.dirOptions.includes(a.slice(0, a.indexOf('=')))) dir = a.slice(a.indexOf('=') + 1);
    else if (spec.force.includes(a)) forced = true;
    else if (spec.keep.includes(a)) kept = true;
    else if (/^-[A-Za-z]+$/.test(a) && !spec.dirOptions.includes(a)) {
      // A cluster of short flags (`-oq`, `-idmu`).
      for (const c of a.slice(1)) {
        if (spec.forceLetters.includes(c)) forced = true;
        if (spec.keepLetters.includes(c)) kept = true;
        if (spec.modeLetters.includes(c)) extracting = true;
      }
    } else if (!a.startsWith('-')) ops.push(a);
    if (spec.modeWords.includes(a)) extracting = true;
  }
  if (spec.mode === 'subcommand') extracting = spec.modeWords.includes(ops[0] ?? '');
  if (!extracting) return undefined;
  return { dir, forced: forced && !kept };
}

/**
 * An archive of unknown content unpacked over home, the root, a system folder, a credential or
 * harness folder, .git (any extractor, any options: a new ~/.ssh/authorized_keys is enough), or
 * over the project root with overwriting asked for (`--overwrite`, `-U`, `unzip -o`, `cpio -u`): its
 * members can replace ~/.bashrc, ~/.ssh/authorized_keys or the project's files (`archive-extract-over`, ask).
 */
function extractsOver(r: RuleContext, dirText: string | undefined, forced: boolean, name: string): void {
  const text = dirText === undefined ? r.cwd : dirText === '~' || dirText.startsWith('~/') ? r.opts.home + dirText.slice(1) : dirText;
  if (text.includes('\u0000')) return;
  const { abs } = resolveTarget(text, r.cwd);
  const a = r.analyzer;
  const cls = classify(abs, a);
  const home = under(r.opts.home);
  let where: string | undefined;
  if ([r.opts.tmp, ...TEMP_DIRS].includes(abs)) return;
  if (cls === 'root' || cls === 'system' || cls === 'home' || cls === 'above-project') where = abs === '/' ? 'the root filesystem' : cls === 'home' ? `the home folder (${abs})` : abs;
  else if (credentialFolderIn(abs, a) || within(abs, home.ssh)) where = `the credential folder ${abs}`;
  else if ([r.opts.home, r.opts.projectDir].some((b) => home.harnessFolders.concat(under(b).harnessFolders).some((h) => within(abs, h)))) where = `the harness settings folder ${abs}`;
  else if (within(abs, posix.join(r.opts.projectDir, '.git'))) where = `the repository's .git (${abs})`;
  else if (cls === 'project-root' && forced) where = `the project root (${abs}), overwriting its files`;
  if (!where) return;
  a.hit('archive-extract-over', 'ask', r.segment, `${name} unpacks an archive over ${where}: its members replace whatever is there`);
}

const EXTRACTOR_NAMES = Object.keys(EXTRACTORS);

const extractors: Rule = (r) => {
  const spec = Object.hasOwn(EXTRACTORS, r.name) ? EXTRACTORS[r.name] : undefined;
  if (!spec) return;
  // tar's own grammar is read once, by tarArchives.
  if (spec.tar) return;
  const e = extraction(spec, r.argv);
  if (e) extractsOver(r, e.dir, e.forced, r.name);
};
extractors.names = EXTRACTOR_NAMES.filter((n) => !EXTRACTORS[n].tar);

export const ARCHIVE_RULES: Rule[] = [tarArchives, extractors];
