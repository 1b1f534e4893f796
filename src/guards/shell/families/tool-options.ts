// Options of everyday developer tools that delete a folder or run a command
// of their own: pytest clears the folder given to --basetemp; cargo runs the
// `runner` / `linker` / `rustc-wrapper` set with --config; git copies a file
// into its object store with hash-object (a secret then leaves with a push)
// and versions whatever folder -C / --work-tree names (a credentials folder
// committed is a credentials folder shipped).
import { posix } from 'node:path';
import { deletesPath, isSecretPath, readsPath, resolveTarget, under, within } from '../path-rules';
import type { Rule } from '../rules';
import { operands } from './args';

/** pytest --basetemp=DIR: "the directory is cleared" before the run. */
const pytestBasetemp: Rule = (r) => {
  for (let k = 1; k < r.argv.length; k++) {
    const a = r.argv[k];
    const dir = a.startsWith('--basetemp=') ? a.slice('--basetemp='.length) : a === '--basetemp' ? r.argv[k + 1] : undefined;
    if (dir) deletesPath(r.analyzer, dir, r.cwd, r.segment, { recursive: true, verb: 'clears' });
  }
};
pytestBasetemp.names = ['pytest', 'py.test'];

/** Cargo configuration keys whose value is a program cargo runs (with the build's arguments). */
const CARGO_COMMAND_KEY = /(?:^|\.)(?:runner|linker|rustc-wrapper|rustc-workspace-wrapper|rustc|rustdoc)$/;

/** cargo --config 'target.<triple>.runner="rm -rf ~"': the value is a command line (a string, or an array of words). */
const cargoConfig: Rule = (r) => {
  for (let k = 1; k < r.argv.length; k++) {
    const a = r.argv[k];
    const kv = a.startsWith('--config=') ? a.slice('--config='.length) : a === '--config' ? r.argv[k + 1] : undefined;
    const m = kv && /^([\w.-]{1,200})\s*=\s*([\s\S]{1,4000})$/.exec(kv);
    if (!m || !CARGO_COMMAND_KEY.test(m[1])) continue;
    const v = m[2].trim();
    const words = v.startsWith('[') ? [...v.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g)].map((w) => w[1] ?? w[2]) : [v.replace(/^"([\s\S]*)"$|^'([\s\S]*)'$/, (_x, d?: string, s?: string) => d ?? s ?? '')];
    const code = v.startsWith('[') ? words.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ') : words[0];
    if (code) r.analyzer.analyzeSource(code, r.depth + 1, `${r.via} > cargo --config ${m[1]}`, r.cwd);
  }
};
cargoConfig.names = ['cargo'];

/** Git subcommands that put the work tree's files into commits or the object store. */
const GIT_VERSIONING = new Set(['add', 'commit', 'stash', 'archive', 'bundle', 'push', 'mv']);

const gitCopies: Rule = (r) => {
  const argv = r.argv;
  // Global options before the subcommand: -C DIR, --work-tree DIR, --git-dir DIR, -c k=v.
  let k = 1;
  let workTree: string | undefined;
  let cwd = r.cwd;
  for (; k < argv.length && argv[k].startsWith('-'); k++) {
    const a = argv[k];
    if (a === '-C' && argv[k + 1]) cwd = posix.resolve(cwd, argv[++k].replace(/^~(?=\/|$)/, r.opts.home));
    else if (a === '--work-tree' && argv[k + 1]) workTree = argv[++k];
    else if (a.startsWith('--work-tree=')) workTree = a.slice('--work-tree='.length);
    else if (a === '-c' || a === '--git-dir' || a === '--namespace' || a === '--exec-path') k++;
  }
  const sub = argv[k];
  if (sub === 'hash-object') {
    // The file's content goes into the object store, ready for a push: a read of that file.
    for (const f of operands(argv, k + 1, ['-t', '--path'])) if (f !== '--stdin' && f !== '--stdin-paths') readsPath(r.analyzer, f, cwd, r.segment);
    return;
  }
  if (!sub || !GIT_VERSIONING.has(sub)) return;
  const tree = resolveTarget((workTree ?? cwd).replace(/^~(?=\/|$)/, r.opts.home), cwd).abs;
  // The work tree is a credentials folder or inside one (home holds one too, but `git add src/x` there adds no keys).
  const cred = under(r.opts.home).credentialFolders.find((f) => within(tree, f));
  if (cred !== undefined || isSecretPath(tree, r.analyzer)) r.analyzer.hit('read-secret-file', 'deny', r.segment, `git ${sub} versions the credentials folder ${cred ?? tree}: its keys go into commits that can be pushed anywhere`);
};
gitCopies.names = ['git'];

export const TOOL_OPTION_RULES: Rule[] = [pytestBasetemp, cargoConfig, gitCopies];
