// Packages installed from where no registry vouches for them: a URL, a git
// repository, a GitHub shorthand, or an index served over plain http or by
// a bare IP address (tables/installers.ts). Their setup.py, postinstall or
// build.rs runs on the machine at install time, so this is a download run
// by another name (`install-from-url`, ask). `pip install -r
// requirements.txt`, `npm install left-pad`, an https index of a vendor
// (`--index-url https://download.pytorch.org/whl/cu121`) stay everyday.
import { resolveTarget } from '../path-rules';
import type { Rule, RuleContext } from '../rules';
import { downloadedOnLine } from './download';
import { INSTALLERS, REGISTRY_URLS, type Installer } from '../tables/installers';

const URL_SPEC = /^(?:git\+[a-z]+:\/\/|git\+ssh:|git:\/\/|hg\+|svn\+|bzr\+|https?:\/\/|ftp:\/\/|github:|gitlab:|bitbucket:|gist:|git@[\w.-]+:)/i;
const PLAIN_SOURCE = /^(?:http|ftp):\/\/|^[a-z]+:\/\/\d{1,3}(?:\.\d{1,3}){3}(?:[:/]|$)|^[a-z]+:\/\/\[[0-9a-f:]+\]/i;
/** `name @ git+https://...` (PEP 508 direct reference) in one word. */
const DIRECT_REFERENCE = /^[\w.-]+(?:\[[^\]]*\])?\s*@\s*(.+)$/;

/** The installer entry and where its own words start, for `pip`, `uv pip`, `python3 -m pip`. */
function installerOf(argv: readonly string[]): { spec: Installer; start: number; name: string } | undefined {
  for (const len of [3, 2, 1]) {
    const key = argv.slice(0, len).join(' ');
    if (len <= argv.length && Object.hasOwn(INSTALLERS, key)) return { spec: INSTALLERS[key], start: len, name: key };
  }
  return undefined;
}

/** Why a package spec or source is not a registry's: the text to show, or undefined. */
function unvouched(value: string, isSource: boolean, github: boolean): string | undefined {
  const direct = URL_SPEC.test(value) ? undefined : DIRECT_REFERENCE.exec(value)?.[1];
  const v = direct ?? value;
  if (isSource) return PLAIN_SOURCE.test(v) ? `the package source ${v} (plain http or a bare address)` : undefined;
  if (URL_SPEC.test(v)) return REGISTRY_URLS.some((u) => v.startsWith(u)) ? undefined : v;
  // npm: `owner/repo` (not `@scope/pkg`, not a path) is a GitHub repository.
  if (github && /^[A-Za-z0-9][\w.-]*\/[\w.-]+(?:#.*)?$/.test(v) && !v.startsWith('.')) return `${v} (a GitHub repository)`;
  return undefined;
}

const installs: Rule = (r: RuleContext) => {
  const found = installerOf(r.argv);
  if (!found) return;
  const { spec, start, name } = found;
  const ops: string[] = [];
  const judged: { value: string; source: boolean }[] = [];
  for (let k = start; k < r.argv.length; k++) {
    const a = r.argv[k];
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const opt = eq > 0 ? a.slice(0, eq) : a;
    if (spec.withArg.includes(opt)) {
      const value = eq > 0 ? a.slice(eq + 1) : r.argv[++k];
      if (value !== undefined && (spec.sources.includes(opt) || spec.specOptions.includes(opt))) judged.push({ value, source: spec.sources.includes(opt) && !(opt === '--git') });
      if (value !== undefined && opt === '--git') judged.push({ value, source: false });
      continue;
    }
    if (a.startsWith('-')) continue;
    ops.push(a);
  }
  if (spec.onlyWith && !r.argv.some((a) => spec.onlyWith!.includes(a))) return;
  const sub = spec.subcommands.find((s) => s.every((w, i) => ops[i] === w));
  if (!sub) return;
  // A package file a downloader saved earlier on the line (`curl -O URL/a.gem && gem install ./a.gem`).
  const fetched = downloadedOnLine.get(r.analyzer);
  if (fetched?.size) for (const op of ops.slice(sub.length)) {
    if (op.includes('\u0000') || !fetched.has(resolveTarget(op, r.cwd).abs)) continue;
    r.analyzer.hit('install-from-url', 'ask', r.segment, `${name} installs ${op}, downloaded earlier on this line: its install scripts run code no registry has seen`);
    return;
  }
  for (const op of ops.slice(sub.length)) judged.push({ value: op, source: false });
  for (const j of judged) {
    if (j.value.includes('\u0000')) continue;
    const why = unvouched(j.value, j.source, spec.githubShorthand);
    if (why) {
      r.analyzer.hit('install-from-url', 'ask', r.segment, `${name} installs from ${why}: its install and build scripts run code no registry has seen`);
      return;
    }
  }
};
installs.names = [...new Set(Object.keys(INSTALLERS).map((k) => k.split(' ')[0]))];

export const INSTALL_RULES: Rule[] = [installs];
