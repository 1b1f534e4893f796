// Rules over one simple command (after quoting, wrappers and substitutions
// are resolved). Each rule is a function of the command; it reports hits
// through the analyzer, which applies the policy's action for the rule id.
import { posix } from 'node:path';
import type { Analyzer, AnalyzeOptions } from './analyze';
import type { SimpleCommand, Word } from './lexer';
import { classify, deletesPath, resolveTarget } from './path-rules';

export interface RuleContext {
  analyzer: Analyzer;
  opts: AnalyzeOptions;
  cmd: SimpleCommand;
  words: Word[];
  argv: string[];
  name: string;
  segment: string;
  cwd: string;
  pipe: SimpleCommand[];
  depth: number;
  via: string;
  vars: Map<string, string>;
}

type Rule = (r: RuleContext) => void;

/** Positional arguments, honouring `--`. */
function operands(argv: string[], from = 1): string[] {
  const out: string[] = [];
  let flags = true;
  for (let k = from; k < argv.length; k++) {
    const a = argv[k];
    if (flags && a === '--') {
      flags = false;
      continue;
    }
    if (flags && a.startsWith('-') && a.length > 1) continue;
    out.push(a);
  }
  return out;
}

function hasShortFlag(argv: string[], letters: string, longs: string[] = []): boolean {
  for (const a of argv.slice(1)) {
    if (a === '--') break;
    if (longs.includes(a)) return true;
    if (/^-[A-Za-z]+$/.test(a) && [...letters].some((l) => a.includes(l))) return true;
  }
  return false;
}

const rm: Rule = (r) => {
  if (r.name !== 'rm' && r.name !== 'unlink' && r.name !== 'rmdir' && r.name !== 'shred') return;
  const recursive = r.name === 'rm' && hasShortFlag(r.argv, 'rR', ['--recursive']);
  for (const t of operands(r.argv)) deletesPath(r.analyzer, t, r.cwd, r.segment, { recursive });
};

const FIND_FILTERS = new Set(['-name', '-iname', '-path', '-ipath', '-regex', '-iregex', '-type', '-mtime', '-mmin', '-atime', '-amin', '-ctime', '-cmin', '-size', '-newer', '-empty', '-user', '-group', '-perm', '-wholename', '-iwholename', '-links', '-inum', '-samefile']);

const find: Rule = (r) => {
  if (r.name !== 'find' && r.name !== 'fd') return;
  if (r.name === 'fd') return;
  const roots: string[] = [];
  let k = 1;
  while (k < r.argv.length && /^-[HLP]$/.test(r.argv[k])) k++;
  for (; k < r.argv.length; k++) {
    const a = r.argv[k];
    if (a.startsWith('-') || a === '(' || a === '!' || a === '\\(') break;
    roots.push(a);
  }
  if (roots.length === 0) roots.push('.');
  const filtered = r.argv.some((a) => FIND_FILTERS.has(a));
  if (r.argv.includes('-delete')) for (const root of roots) deletesPath(r.analyzer, filtered ? posix.join(root, '*') : root, r.cwd, r.segment, { recursive: true, filtered });
  // -exec / -execdir / -ok: analyze the command with {} standing for a match under each root.
  for (let e = 0; e < r.argv.length; e++) {
    if (!['-exec', '-execdir', '-ok', '-okdir'].includes(r.argv[e])) continue;
    let end = e + 1;
    while (end < r.argv.length && r.argv[end] !== ';' && r.argv[end] !== '+' && r.argv[end] !== '\\;') end++;
    const inner = r.words.slice(e + 1, end);
    const innerName = inner[0] ? posix.basename(inner[0].text) : '';
    // -exec rm on a root outside the project deletes there, file by file or not.
    if (['rm', 'unlink', 'shred'].includes(innerName)) for (const root of roots) deletesPath(r.analyzer, filtered ? posix.join(root, '*') : root, r.cwd, r.segment, { recursive: true, filtered });
    for (const root of roots) {
      const replaced = inner.map((w) => ({ ...w, text: w.text.split('{}').join(filtered ? posix.join(root, 'match') : root) }));
      if (replaced.length) {
        const c2: SimpleCommand = { ...r.cmd, words: replaced, assignments: [], redirects: [] };
        r.analyzer.analyzeCommand(c2, r.depth + 1, `${r.via} > find ${r.argv[e]}`, r.cwd, [c2], r.vars);
      }
    }
    e = end;
  }
};

function matchesBranch(r: RuleContext, branch: string): boolean {
  return r.opts.policy.protectedBranches.some((p) => p.test(branch));
}

const git: Rule = (r) => {
  if (r.name !== 'git') return;
  let k = 1;
  while (k < r.argv.length && r.argv[k].startsWith('-')) {
    if (['-C', '-c', '--git-dir', '--work-tree', '--namespace'].includes(r.argv[k])) k++;
    k++;
  }
  const sub = r.argv[k];
  const args = r.argv.slice(k + 1);
  const flags = args.filter((a) => a.startsWith('-'));
  const pos = operands(['git', ...args]);
  const has = (...names: string[]) => args.some((a) => names.includes(a) || names.some((n) => n.endsWith('=') && a.startsWith(n)));
  switch (sub) {
    case 'push': {
      const force = has('--force', '--force-with-lease', '--force-with-lease=', '--force-if-includes') || flags.some((f) => /^-[a-zA-Z]*f[a-zA-Z]*$/.test(f)) || pos.slice(1).some((p) => p.startsWith('+'));
      const deleting = has('--delete', '-d') || pos.slice(1).some((p) => p.startsWith(':'));
      const wide = has('--all', '--mirror', '--branches');
      const refs = pos.slice(1);
      const targets = refs.length
        ? refs.map((ref) => {
            const s = ref.replace(/^\+/, '');
            const dst = s.includes(':') ? s.slice(s.indexOf(':') + 1) : s;
            const b = dst === 'HEAD' || dst === '' ? r.opts.currentBranch ?? '' : dst;
            return b.replace(/^refs\/heads\//, '');
          })
        : [r.opts.currentBranch ?? ''];
      const protectedHit = wide || targets.some((b) => b !== '' && matchesBranch(r, b));
      if (deleting && (protectedHit || (has('--delete', '-d') && refs.slice(0).some((b) => matchesBranch(r, b))))) {
        r.analyzer.hit('git-delete-protected-branch', 'deny', r.segment, `deletes the protected branch ${targets.join(', ')} on the remote`);
      }
      if (force) {
        if (protectedHit) r.analyzer.hit('git-force-push-protected', 'deny', r.segment, `force-pushes to the protected branch ${wide ? '(all branches)' : targets.filter(Boolean).join(', ')}`);
        else r.analyzer.hit('git-force-push', 'ask', r.segment, `force-pushes ${targets.filter(Boolean).join(', ') || 'the current branch'} (rewrites remote history)`);
      }
      return;
    }
    case 'reset':
      if (has('--hard', '--merge', '--keep')) r.analyzer.hit('git-reset-hard', 'ask', r.segment, 'discards uncommitted work (git reset --hard)');
      return;
    case 'clean':
      if (!has('-n', '--dry-run') && flags.some((f) => /^-[a-zA-Z]*f/.test(f) || f === '--force')) r.analyzer.hit('git-clean', 'ask', r.segment, 'deletes untracked files (git clean -f)');
      return;
    case 'checkout':
    case 'restore': {
      const paths = args.includes('--') ? args.slice(args.indexOf('--') + 1) : sub === 'restore' ? pos : pos.filter((p) => p === '.' || p === ':/' || p === '*');
      const broad = paths.some((p) => p === '.' || p === ':/' || p === '*' || p === './');
      const forced = sub === 'checkout' && has('-f', '--force');
      if (sub === 'restore' && has('--staged') && !has('--worktree', '-W')) return;
      if (broad || forced) r.analyzer.hit('git-discard-changes', 'ask', r.segment, 'discards uncommitted changes in the working tree');
      return;
    }
    case 'branch':
      if (has('-D') || (has('-d', '--delete') && has('-f', '--force'))) r.analyzer.hit('git-branch-force-delete', 'ask', r.segment, 'force-deletes a branch with unmerged work');
      return;
    case 'stash':
      if (args[0] === 'drop' || args[0] === 'clear') r.analyzer.hit('git-stash-drop', 'ask', r.segment, `discards stashed work (git stash ${args[0]})`);
      return;
  }
};

const DOWNLOADERS = new Set(['curl', 'wget', 'fetch', 'http', 'https', 'aria2c', 'xh', 'lwp-request', 'Invoke-WebRequest', 'iwr']);
const RUNNERS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'fish', 'python', 'python2', 'python3', 'node', 'nodejs', 'perl', 'ruby', 'php', 'bun', 'deno', 'pwsh', 'powershell', 'iex', 'Invoke-Expression', 'source', '.']);

function innerName(words: Word[]): { name: string; args: string[] } {
  let k = 0;
  while (k < words.length && ['sudo', 'doas', 'env', 'command', 'exec', 'nice', 'time', 'nohup'].includes(posix.basename(words[k].text))) {
    k++;
    while (k < words.length && (words[k].text.startsWith('-') || /^[A-Za-z_]+=/.test(words[k].text))) k++;
  }
  return { name: words[k] ? posix.basename(words[k].text) : '', args: words.slice(k + 1).map((w) => w.text) };
}

const pipeToInterpreter: Rule = (r) => {
  if (r.cmd.stage === 0) return;
  const { name, args } = innerName(r.words);
  if (!RUNNERS.has(name)) return;
  // `| bash script.sh` reads the pipe only with -s or -; `| python` with no file reads stdin.
  const scriptArg = args.find((a) => !a.startsWith('-'));
  if (scriptArg && !['-', '/dev/stdin'].includes(scriptArg)) return;
  const upstream = r.pipe.filter((c) => c.stage < r.cmd.stage).map((c) => innerName(c.words).name);
  const dl = upstream.find((n) => DOWNLOADERS.has(n));
  if (dl) r.analyzer.hit('pipe-download-to-interpreter', 'deny', r.segment, `runs what ${dl} downloads (piped into ${name})`);
};

const processSubstitutionDownload: Rule = (r) => {
  if (!RUNNERS.has(r.name)) return;
  const hasProc = r.words.some((w) => w.text.startsWith('\u0000procsub'));
  const dynScript = r.words.some((w) => w.dynamic);
  if (!hasProc && !dynScript) return;
  r.analyzer.markRunsSubstitution(r.segment, r.name);
};

const chmodChown: Rule = (r) => {
  if (r.name !== 'chmod' && r.name !== 'chown' && r.name !== 'chgrp') return;
  if (!hasShortFlag(r.argv, 'R', ['--recursive'])) return;
  const ops = operands(r.argv);
  const targets = r.name === 'chmod' || r.name === 'chown' || r.name === 'chgrp' ? ops.slice(1) : ops;
  const mode = ops[0] ?? '';
  for (const t of targets) {
    const { abs } = resolveTarget(t, r.cwd);
    const cls = classify(abs, r.analyzer);
    const wide = cls === 'root' || cls === 'system' || cls === 'home' || cls === 'above-project';
    if (r.name === 'chmod' && wide && /^(?:0?[0-7]?777|(?:a|o|ugo)?\+[rwxXst]*w[rwxXst]*)$/.test(mode)) r.analyzer.hit('chmod-recursive-world-writable', 'deny', r.segment, `makes ${abs} and everything under it world-writable`);
    if (r.name !== 'chmod' && wide) r.analyzer.hit('chown-recursive-system', 'deny', r.segment, `recursively changes the owner of ${abs}`);
  }
};

const disk: Rule = (r) => {
  if (r.name === 'dd') {
    const of = r.argv.find((a) => a.startsWith('of='));
    if (of && /^of=\/dev\/(?!null$|zero$|stdout$|stderr$|fd\/)/.test(of)) r.analyzer.hit('disk-destroy', 'deny', r.segment, `dd writes to the device ${of.slice(3)}`);
    return;
  }
  if (/^mkfs(?:\.\w+)?$|^mke2fs$|^mkswap$|^wipefs$|^fdisk$|^sfdisk$|^parted$|^sgdisk$|^gdisk$|^diskutil$|^format$/.test(r.name)) {
    if (r.name === 'diskutil' && !['eraseDisk', 'eraseVolume', 'zeroDisk', 'randomDisk', 'partitionDisk'].includes(r.argv[1] ?? '')) return;
    if (r.name === 'format' && !r.argv.some((a) => /^[A-Za-z]:$/.test(a))) return;
    if ((r.name === 'fdisk' || r.name === 'parted' || r.name === 'sfdisk') && r.argv.includes('-l')) return;
    r.analyzer.hit('disk-destroy', 'deny', r.segment, `${r.name} rewrites a disk or partition`);
  }
  if (r.name === 'shred' && r.argv.some((a) => a.startsWith('/dev/'))) r.analyzer.hit('disk-destroy', 'deny', r.segment, 'shred overwrites a device');
};

const READERS = new Set(['cat', 'less', 'more', 'head', 'tail', 'bat', 'batcat', 'view', 'nl', 'tac', 'strings', 'xxd', 'od', 'hexdump', 'base64', 'base32', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'awk', 'gawk', 'sed', 'sort', 'uniq', 'cut', 'jq', 'yq', 'diff', 'vim', 'vi', 'nano', 'emacs', 'code', 'open', 'gpg', 'openssl', 'ssh-keygen', 'zip', 'tar', 'gzip', 'nc', 'ncat', 'socat', 'pbcopy', 'xclip', 'column', 'fold', 'paste', 'tr', 'wc']);
const COPIERS = new Set(['cp', 'scp', 'rsync', 'install', 'ln', 'mv']);
const WRITERS = new Set(['tee', 'truncate', 'touch', 'chmod', 'chown', 'chgrp', 'chattr', 'setfacl', 'unlink']);

const secretsAndSelf: Rule = (r) => {
  const ops = operands(r.argv);
  if (READERS.has(r.name)) {
    // the pattern argument of grep/sed/awk is not a file
    const files = ['grep', 'egrep', 'fgrep', 'rg', 'ag', 'sed', 'awk', 'gawk', 'jq', 'yq'].includes(r.name) && !r.argv.some((a) => a === '-e' || a === '-f' || a.startsWith('--regexp')) ? ops.slice(1) : ops;
    for (const f of files) r.analyzer.readsPath(f, r.cwd, r.segment);
    if ((r.name === 'sed' || r.name === 'perl') && r.argv.some((a) => /^-i/.test(a) || a === '--in-place')) for (const f of ops.slice(1)) r.analyzer.writesPath(f, r.cwd, r.segment);
  }
  if (r.name === 'perl' && r.argv.some((a) => /^-[a-z]*i/.test(a))) for (const f of ops.slice(1)) r.analyzer.writesPath(f, r.cwd, r.segment);
  if (COPIERS.has(r.name)) {
    const dest = r.argv.find((a, i) => i > 0 && (a === '-t' || a === '--target-directory')) ? r.argv[r.argv.findIndex((a) => a === '-t' || a === '--target-directory') + 1] : ops[ops.length - 1];
    const sources = r.name === 'ln' ? [] : ops.filter((o) => o !== dest);
    for (const s of sources) {
      const remote = /^[^/]*:/.test(s) && !s.startsWith('./');
      if (!remote) r.analyzer.readsPath(s, r.cwd, r.segment);
      if (r.name === 'mv' && !remote) r.analyzer.writesPath(s, r.cwd, r.segment);
    }
    if (dest && !/^[^/]*:/.test(dest)) r.analyzer.writesPath(dest, r.cwd, r.segment);
  }
  if (WRITERS.has(r.name)) {
    const targets = r.name === 'chmod' || r.name === 'chown' || r.name === 'chgrp' ? ops.slice(1) : ops;
    for (const t of targets) r.analyzer.writesPath(t, r.cwd, r.segment);
  }
  if (r.name === 'dd') {
    const inf = r.argv.find((a) => a.startsWith('if='));
    const of = r.argv.find((a) => a.startsWith('of='));
    if (inf) r.analyzer.readsPath(inf.slice(3), r.cwd, r.segment);
    if (of) r.analyzer.writesPath(of.slice(3), r.cwd, r.segment);
  }
  if (r.name === 'sqlite3' || r.name === 'sqlite') {
    for (const o of ops.slice(0, 1)) if (o.includes('.loom')) r.analyzer.writesPath(o, r.cwd, r.segment);
  }
  if (r.name === 'curl' || r.name === 'wget' || r.name === 'http') {
    for (let k = 1; k < r.argv.length; k++) {
      const a = r.argv[k];
      const v = r.argv[k + 1] ?? '';
      if (['-T', '--upload-file', '--post-file', '--body-file'].includes(a)) r.analyzer.readsPath(v, r.cwd, r.segment);
      if (['-d', '--data', '--data-binary', '--data-raw', '--data-urlencode', '-F', '--form'].includes(a) && v.includes('@')) r.analyzer.readsPath(v.slice(v.indexOf('@') + 1).replace(/;.*$/, ''), r.cwd, r.segment);
      if (/^--(?:data|data-binary|upload-file)=/.test(a)) r.analyzer.readsPath(a.slice(a.indexOf('=') + 1).replace(/^@/, ''), r.cwd, r.segment);
    }
  }
};

const sudo: Rule = (r) => {
  if (r.name === 'sudo' || r.name === 'doas' || r.name === 'su' || r.name === 'pkexec') r.analyzer.hit('sudo', 'ask', r.segment, `runs with elevated privileges (${r.name})`);
};

// Bare runtime names: pkill -f node kills every Node process on the machine, not the dev server.
const RUNTIMES = /^(?:node|nodejs|python[0-9.]*|java|ruby|perl|php|bash|sh|zsh|fish|npm|npx|yarn|pnpm|bun|deno|go|next|chrome|chromium|firefox|docker|dockerd|code|electron|ssh|sshd|postgres|mysqld|redis-server|\.)$/;

const killBroad: Rule = (r) => {
  if (r.name === 'pkill' || r.name === 'killall') {
    const patterns = operands(r.argv).filter((p) => !/^\d+$/.test(p));
    const broad = patterns.length === 0 || r.argv.includes('-u') || patterns.some((p) => p.split(/\\?\|/).some((alt) => RUNTIMES.test(alt.trim())));
    if (broad) r.analyzer.hit('kill-broad', 'ask', r.segment, `${r.name} ${patterns.join(' ')} kills every matching process on the machine, not one process`);
  }
  if (r.name === 'kill' && r.argv.slice(1).some((a) => a === '-1' || a === '0')) r.analyzer.hit('kill-broad', 'ask', r.segment, 'kill -1 signals every process you own');
};

// PowerShell and cmd.exe spellings of a recursive delete or a disk wipe,
// for agents whose shell tool is PowerShell. Windows paths are judged by
// shape: a drive root, the user profile, or Windows' own folders.
const WIN_DELETE = new Set(['remove-item', 'ri', 'del', 'erase', 'rd', 'rmdir']);
const WIN_ROOT = /^(?:[A-Za-z]:[\\/]?|[\\/])$|^[A-Za-z]:[\\/](?:Windows|Program Files(?: \(x86\))?|ProgramData|Users)[\\/]?$/i;
const WIN_HOME = /^(?:~|\$env:USERPROFILE|\$HOME|%USERPROFILE%|\$env:HOMEPATH)[\\/]?$/i;

/**
 * PowerShell / cmd.exe text is not POSIX shell (backslashes are path
 * separators, `$env:X` is one token), so these rules read the raw line:
 * split on ; | & and whitespace, quotes trimmed.
 */
export function checkWindowsLine(a: Analyzer, raw: string): void {
  for (const part of raw.split(/[;|&\n]+/)) {
    const words = part.trim().split(/\s+/).map((w) => w.replace(/^['"]|['"]$/g, ''));
    const name = (words[0] ?? '').toLowerCase();
    const segment = part.trim().slice(0, 200);
    if (name === 'format-volume' || name === 'clear-disk' || name === 'initialize-disk') {
      a.hit('disk-destroy', 'deny', segment, `${words[0]} erases a disk or volume`);
      continue;
    }
    if (!WIN_DELETE.has(name)) continue;
    const args = words.slice(1);
    if (!args.some((w) => /^-r(?:ecurse)?$/i.test(w) || /^\/s$/i.test(w))) continue;
    for (const v of args) {
      if (WIN_ROOT.test(v) && !/^\/[sq]$/i.test(v)) a.hit('rm-recursive-root', 'deny', segment, `recursively deletes ${v}`);
      else if (WIN_HOME.test(v)) a.hit('rm-recursive-home', 'deny', segment, 'recursively deletes the user profile');
    }
  }
}

export const RULES: Rule[] = [rm, find, git, pipeToInterpreter, processSubstitutionDownload, chmodChown, disk, secretsAndSelf, sudo, killBroad];
