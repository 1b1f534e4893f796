// Rules about paths a command reads, writes or deletes: secret files,
// loom's own files and the harnesses' hook settings, and where a recursive
// delete lands (system, home, the project root, outside the project).
import { posix } from 'node:path';
import type { Analyzer } from './analyze';
import { globMatch } from './glob';

export type PathClass = 'root' | 'system' | 'home' | 'above-project' | 'project-root' | 'inside-project' | 'temp' | 'outside';

const SYSTEM_DIRS = new Set(['/bin', '/boot', '/dev', '/etc', '/lib', '/lib32', '/lib64', '/opt', '/proc', '/root', '/sbin', '/srv', '/sys', '/usr', '/var', '/home', '/Users', '/System', '/Library', '/Applications', '/snap', '/mnt', '/media', '/private', '/cores', '/Volumes', '/nix']);
const ENV_OK = /^\.env\.(?:example|sample|template|dist|defaults|schema|test\.example)$/i;
const HOOK_SETTINGS = ['.claude/settings.json', '.claude/settings.local.json', '.codex/hooks.json', '.codex/config.toml', '.gemini/settings.json', '.cursor/hooks.json', '.opencode/plugins', 'opencode.json'];

export function within(child: string, parent: string): boolean {
  if (parent === '/') return true;
  return child === parent || child.startsWith(parent.endsWith('/') ? parent : parent + '/');
}

/** Resolves a word to an absolute path; globs are cut back to the folder they start in. */
export function resolveTarget(text: string, cwd: string): { abs: string; globbed: boolean } {
  const globAt = text.search(/[*?[]/);
  let base = text;
  let globbed = false;
  if (globAt >= 0) {
    globbed = true;
    const slash = text.lastIndexOf('/', globAt);
    base = slash < 0 ? '.' : slash === 0 ? '/' : text.slice(0, slash);
  }
  return { abs: posix.resolve(cwd, base.replace(/\u0000/g, '') || '.'), globbed };
}

export function classify(abs: string, a: Analyzer): PathClass {
  const { projectDir, home, tmp } = a.opts;
  if (abs === '/') return 'root';
  // The project is protected wherever it lives, the temp folder included:
  // the temp exemption is for paths outside the project.
  if (abs === projectDir) return 'project-root';
  if (within(abs, projectDir)) return 'inside-project';
  if (within(projectDir, abs)) return abs === home ? 'home' : 'above-project';
  for (const t of [tmp, '/tmp', '/var/tmp', '/private/tmp', '/dev/shm']) if (abs !== t && within(abs, t)) return 'temp';
  if (abs === home) return 'home';
  if (SYSTEM_DIRS.has(abs) || (abs.split('/').length === 2 && !within(abs, home))) return 'system';
  return 'outside';
}

function isSecretPath(abs: string, a: Analyzer): boolean {
  const base = posix.basename(abs);
  if (/^\.env(?:\..+)?$/i.test(base) && !ENV_OK.test(base)) return true;
  if (/^(?:id_rsa|id_dsa|id_ecdsa|id_ed25519)(?:_[\w-]+)?$/.test(base)) return true;
  if (/\.(?:pem|p12|pfx|keystore|jks)$/i.test(base) || /(?:^|[._-])private[._-]?key/i.test(base) || /\.key$/i.test(base)) return true;
  const home = a.opts.home;
  if (within(abs, posix.join(home, '.ssh')) && !/\.pub$|^known_hosts|^config$|^authorized_keys/.test(base)) return true;
  for (const f of ['.aws/credentials', '.netrc', '.pgpass', '.git-credentials', '.docker/config.json', '.kube/config', '.config/gh/hosts.yml', '.npmrc', '.pypirc']) {
    if (abs === posix.join(home, f)) return true;
  }
  if (base === '.netrc' || base === '.pgpass' || base === '.git-credentials') return true;
  const rel = posix.relative(a.opts.projectDir, abs);
  return a.opts.policy.sensitivePaths.some((p) => p.test(abs) || p.test(rel) || p.test(base));
}

function protectedKind(abs: string, a: Analyzer): 'modify-loom' | 'modify-hook-settings' | undefined {
  const { projectDir, home } = a.opts;
  if (within(abs, posix.join(projectDir, '.loom'))) return 'modify-loom';
  for (const p of a.opts.protectedPaths) if (within(abs, p)) return 'modify-loom';
  for (const rel of HOOK_SETTINGS) {
    if (within(abs, posix.join(projectDir, rel)) || within(abs, posix.join(home, rel))) return 'modify-hook-settings';
  }
  return undefined;
}

export function readsPath(a: Analyzer, path: string, cwd: string, segment: string): void {
  if (path.includes('\u0000')) return;
  const { abs } = resolveTarget(path, cwd);
  if (isSecretPath(abs, a)) a.hit('read-secret-file', 'deny', segment, `reads the secret file ${abs}`);
}

export function writesPath(a: Analyzer, path: string, cwd: string, segment: string): void {
  if (path.includes('\u0000') && !path.replace(/\u0000/g, '').includes('/')) return;
  const { abs } = resolveTarget(path, cwd);
  const kind = protectedKind(abs, a);
  if (kind === 'modify-loom') a.hit(kind, 'deny', segment, `changes loom's own files (${abs}): the agent may not switch off its audit`);
  else if (kind) a.hit(kind, 'deny', segment, `changes the harness hook settings (${abs})`);
}

/** Can the glob word (whose fixed folder is `abs`) name the project or a folder holding it? */
function globReaches(text: string, abs: string, projectDir: string): boolean {
  if (!within(projectDir, abs) || projectDir === abs) return false;
  const globAt = text.search(/[*?[]/);
  const comp = text.slice(text.lastIndexOf('/', globAt) + 1).split('/')[0];
  const next = projectDir.slice(abs === '/' ? 1 : abs.length + 1).split('/')[0];
  return globMatch(comp, next);
}

export interface DeleteOptions {
  recursive: boolean;
  /** find with predicates: the project root itself is not wiped. */
  filtered?: boolean;
}

export function deletesPath(a: Analyzer, path: string, cwd: string, segment: string, o: DeleteOptions): void {
  if (path.includes('\u0000')) {
    const prefix = path.slice(0, path.indexOf('\u0000'));
    // "$DIR/build" is unknown; "./build/$X" stays under a known folder.
    if (!prefix.includes('/') || prefix.endsWith('=')) {
      if (o.recursive) a.hit('rm-unknown-target', 'ask', segment, `deletes a path only known at run time (${path.replace(/\u0000/g, '$…')})`);
      return;
    }
    path = prefix.slice(0, prefix.lastIndexOf('/') + 1) + '*';
  }
  writesPath(a, path, cwd, segment);
  if (!o.recursive) return;
  const { abs, globbed } = resolveTarget(path, cwd);
  if (a.opts.policy.allowedOutsidePaths.some((p) => p.test(abs))) return;
  // /tmp/test-* deletes inside the temp folder, not the folder itself.
  if (globbed && [a.opts.tmp, '/tmp', '/var/tmp', '/private/tmp', '/dev/shm'].includes(abs) && !globReaches(path, abs, a.opts.projectDir)) return;
  const cls = classify(abs, a);
  switch (cls) {
    case 'root':
    case 'system':
      a.hit('rm-recursive-root', 'deny', segment, `recursively deletes ${abs === '/' ? 'the root filesystem' : `the system folder ${abs}`}`);
      break;
    case 'home':
      a.hit('rm-recursive-home', 'deny', segment, 'recursively deletes the home folder');
      break;
    case 'above-project':
      a.hit('rm-recursive-outside-project', 'deny', segment, `recursively deletes ${abs}, which holds the project`);
      break;
    case 'project-root':
      if (!o.filtered) a.hit('rm-recursive-project-root', 'deny', segment, `recursively deletes the project root${globbed ? "'s contents" : ''} (${abs})`);
      break;
    case 'outside':
      a.hit('rm-recursive-outside-project', 'deny', segment, `recursively deletes ${abs}, outside the project and the temp folder`);
      break;
    case 'inside-project':
      if (posix.basename(abs) === '.git' && posix.dirname(abs) === a.opts.projectDir) a.hit('rm-git-dir', 'ask', segment, 'deletes the repository history (.git)');
      break;
    case 'temp':
      break;
  }
}
