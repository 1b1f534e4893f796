// The policy: defaults from config/policy.default.json, overridden by the
// project's .loom/policy.json, then by the hook's own `policy` object.
// Every layer is schema-checked (validator generated at build time) and
// errors name the file and the JSON path.
import { parseRelaxedJson } from '../util/jsonc';
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { fileError } from '../util/file-reason';
import { NotRegularError, readRegularFile } from '../util/read-regular';
import { compileCommandRules, type CommandRule, type CompiledCommandRule } from '../guards/shell/custom-rules';
import { join } from 'node:path';
import type { Decision } from '../contract/types';
import { validatePolicy } from '../generated/policy-validator';
import { jsonPointerToPath } from '../util/json-path';
import { sha256Hex } from '../util/sha256';
import { ownValue } from '../util/own';
import { assertLinearRegex, compilePattern, type PathPattern } from './patterns';
import { remoteProjects } from '../util/remote-projects';
import { mkdirBounded } from '../util/bounded-mkdir';

export interface Policy {
  rules: Record<string, Decision>;
  protectedBranches: PathPattern[];
  sensitivePaths: PathPattern[];
  allowedOutsidePaths: PathPattern[];
  ciConfigPaths: PathPattern[];
  promptSecret: 'allow' | 'ask' | 'deny' | 'redact';
  completionChecks: CompletionCheck[];
  maxConsecutiveStopBlocks: number;
  compaction: { denyWhileTaskInProgress: boolean; lastDecisions: number };
  connectorAllowlist: string[];
  dataHostAllowlist: string[];
  /** The team's own command rules (commandRules and enabled packs), matched on analysed commands. */
  commandRules: CompiledCommandRule[];
}

export interface CompletionCheck {
  name: string;
  mustMention: string[];
  message?: string;
  events?: ('Stop' | 'SubagentStop')[];
}

interface RawPolicy {
  completionChecks?: CompletionCheck[];
  maxConsecutiveStopBlocks?: number;
  compaction?: { denyWhileTaskInProgress?: boolean; lastDecisions?: number };
  connectorAllowlist?: string[];
  dataHostAllowlist?: string[];
  rules?: Record<string, Decision>;
  protectedBranches?: string[];
  sensitivePaths?: string[];
  allowedOutsidePaths?: string[];
  ciConfigPaths?: string[];
  promptSecret?: Policy['promptSecret'];
  unparseable?: Decision;
  commandRules?: CommandRule[];
  packs?: string[];
}

export class PolicyError extends Error {}

const POLICY_KEYS = new Set(['$schema', 'version', 'rules', 'protectedBranches', 'sensitivePaths', 'allowedOutsidePaths', 'ciConfigPaths', 'promptSecret', 'unparseable', 'checkpointEvery', 'maxToolOutputBytes', 'completionChecks', 'maxConsecutiveStopBlocks', 'compaction', 'connectorAllowlist', 'dataHostAllowlist', 'commandRules', 'packs']);

function check(raw: unknown, where: string): RawPolicy {
  if (!validatePolicy(raw)) {
    const lines = (validatePolicy.errors ?? []).map((e) => `${where}: ${jsonPointerToPath(e.instancePath)}: ${e.message ?? e.keyword}${e.keyword === 'additionalProperties' ? ` "${String(e.params.additionalProperty)}"` : ''}`);
    throw new PolicyError(lines.join('\n'));
  }
  return raw as RawPolicy;
}

const MAX_POLICY_BYTES = 1024 * 1024;

function readJson(file: string): unknown | undefined {
  const text = readText(file);
  if (text === undefined) return undefined;
  try {
    // Comments are allowed (the starter policy explains itself), and a comma left before a closing bracket.
    return parseRelaxedJson(text);
  } catch (e) {
    throw new PolicyError(`${file}: $: invalid JSON: ${(e as Error).message}`);
  }
}

function merge(base: RawPolicy, over: RawPolicy): RawPolicy {
  const out: RawPolicy = { ...base, ...over, rules: { ...(base.rules ?? {}), ...(over.rules ?? {}) } };
  // Lists extend the defaults, except protected branches, which a project may narrow.
  for (const k of ['sensitivePaths', 'allowedOutsidePaths', 'ciConfigPaths', 'completionChecks', 'connectorAllowlist', 'dataHostAllowlist', 'commandRules', 'packs'] as const) {
    if (over[k]) (out as Record<string, unknown[]>)[k] = [...((base[k] as unknown[]) ?? []), ...(over[k] as unknown[])];
  }
  if (over.compaction) out.compaction = { ...(base.compaction ?? {}), ...over.compaction };
  if (over.unparseable) out.rules = { ...out.rules, unparseable: over.unparseable, 'dynamic-command': over.unparseable };
  return out;
}

function compileAll(list: string[] | undefined, where: string): PathPattern[] {
  return (list ?? []).map((p, i) => {
    try {
      return compilePattern(p);
    } catch (e) {
      // The lists are merged (defaults, the project's file, the hook's), so the value names the entry, not an index.
      throw new PolicyError(`${where}: ${JSON.stringify(p).slice(0, 120)}: ${(e as Error).message}`);
    }
  });
}

/** A policy file's text: a regular file of at most 1 MiB, else a PolicyError naming why (a FIFO, a device, a link to nothing). */
function readText(file: string): string | undefined {
  try {
    return readRegularFile(file, MAX_POLICY_BYTES);
  } catch (e) {
    if (e instanceof NotRegularError) throw new PolicyError(e.message);
    throw new PolicyError(`${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

/** Opt-in rule packs shipped in config/packs/<name>.json ({"commandRules": [...]}). */
function withPacks(packRoot: string, layer: RawPolicy, where: string): RawPolicy {
  if (!layer.packs?.length) return layer;
  const rules: CommandRule[] = [];
  layer.packs.forEach((name, i) => {
    const file = join(packRoot, 'config', 'packs', `${name}.json`);
    const pack = readJson(file) as { commandRules?: CommandRule[] } | undefined;
    if (pack === undefined) throw new PolicyError(`${where}: $.packs[${i}]: no rule pack "${name}" (config/packs/ has the shipped ones)`);
    const own = check(pack, file).commandRules;
    checkRulePatterns(own, file);
    rules.push(...(own ?? []));
  });
  return { ...layer, commandRules: [...rules, ...(layer.commandRules ?? [])] };
}

/** A rule id in `rules` must name a rule: a misspelt id would otherwise be ignored in silence. */
function checkRuleIds(layer: RawPolicy, known: Set<string>, where: string): void {
  const own = new Set((layer.commandRules ?? []).map((r) => r.id));
  for (const id of Object.keys(layer.rules ?? {})) {
    if (!known.has(id) && !own.has(id)) throw new PolicyError(`${where}: $.rules.${id}: unknown rule id "${id}" (loom explain --rules lists them; a custom rule needs an entry in commandRules)`);
  }
  (layer.commandRules ?? []).forEach((r, i) => {
    if (known.has(r.id)) throw new PolicyError(`${where}: $.commandRules[${i}].id: "${r.id}" is a built-in rule id; give the custom rule its own`);
  });
}

/** A project with no policy layer of its own (a team server without --policy-dir): never read from disk. */
const NO_PROJECT_POLICY = '\u0000no-project-policy';
const projectPolicyFile = (projectDir: string): string | undefined => (projectDir === NO_PROJECT_POLICY ? undefined : join(projectDir, '.loom', 'policy.json'));

function mergedRaw(packRoot: string, projectDir: string, hookPolicy: Record<string, unknown>): RawPolicy {
  const defaultsFile = join(packRoot, 'config', 'policy.default.json');
  const defaults = check(readJson(defaultsFile) ?? {}, defaultsFile);
  checkRulePatterns(defaults.commandRules, defaultsFile);
  let raw = withPacks(packRoot, defaults, defaultsFile);
  const known = new Set([...Object.keys(raw.rules ?? {}), ...(raw.commandRules ?? []).map((r) => r.id)]);
  const projectFile = projectPolicyFile(projectDir);
  const project = projectFile === undefined ? undefined : readJson(projectFile);
  if (projectFile !== undefined && project !== undefined) {
    const checked = check(project, projectFile);
    checkRulePatterns(checked.commandRules, projectFile);
    const layer = withPacks(packRoot, checked, projectFile);
    checkRuleIds(layer, known, projectFile);
    for (const r of layer.commandRules ?? []) known.add(r.id);
    raw = merge(raw, { ...layer, packs: undefined });
  }
  const fromHook = Object.fromEntries(Object.entries(hookPolicy).filter(([k]) => POLICY_KEYS.has(k)));
  if (Object.keys(fromHook).length) {
    const checkedHook = check(fromHook, 'hook policy');
    checkRulePatterns(checkedHook.commandRules, 'hook policy');
    const layer = withPacks(packRoot, checkedHook, 'hook policy');
    checkRuleIds(layer, known, 'hook policy');
    raw = merge(raw, { ...layer, packs: undefined });
  }
  return raw;
}

/** Pack names a policy text lists (`"packs": ["a", "b"]`), read without parsing it; a name that is not a plain word is left to validation. */
function packNames(text: string): string[] {
  const m = /"packs"\s*:\s*\[([^\]]{0,2000})\]/.exec(text);
  if (!m) return [];
  return [...m[1].matchAll(/"([\w.-]{1,64})"/g)].map((x) => x[1]).filter((n) => !n.includes('..')).slice(0, 16);
}

/**
 * The merged policy of texts that already passed validation is remembered
 * in the pack's dist/.cache (as trusted as its code), keyed by the exact
 * texts: the schema validator then does not run on every tool call.
 */
function cachedRaw(packRoot: string, projectDir: string, hookPolicy: Record<string, unknown>, packFiles: string[] = []): RawPolicy {
  const defaults = readText(join(packRoot, 'config', 'policy.default.json')) ?? '';
  const project = projectPolicyFile(projectDir) === undefined ? null : readText(projectPolicyFile(projectDir)!) ?? null;
  // The packs the texts name are part of what was validated: an edited pack is a new key.
  packFiles.push(...[defaults, project ?? '', JSON.stringify({ packs: hookPolicy.packs ?? [] })].flatMap((t) => packNames(t)).map((n) => join(packRoot, 'config', 'packs', `${n}.json`)));
  const packs = packFiles.map((f) => readText(f) ?? '');
  const key = JSON.stringify([defaults, project, hookPolicy, packs]);
  const cacheFile = join(packRoot, 'dist', '.cache', `policy-${sha256Hex(projectDir).slice(0, 16)}.json`);
  try {
    const c = JSON.parse(readFileSync(cacheFile, 'utf8')) as { key: string; raw: RawPolicy };
    if (c.key === key) return c.raw;
  } catch {
    // no cache yet
  }
  const raw = mergedRaw(packRoot, projectDir, hookPolicy);
  try {
    mkdirBounded(join(packRoot, 'dist', '.cache'));
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ key, raw }));
    renameSync(tmp, cacheFile);
  } catch {
    // read-only pack: validate every time
  }
  return raw;
}

// In a long-lived process (loom serve) the same policy is asked for on every
// request: keep it while both files' size and mtime stay the same.
const memo = new Map<string, { stamp: string; policy: Policy; checkedAt: number; packs: string[] }>();

function stampOf(file: string): string {
  // throwIfNoEntry: a missing file must not cost an exception on every request.
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(file, { throwIfNoEntry: false });
  } catch (e) {
    // A link loop, or `.loom` as a file: the policy cannot be read (one line naming the file, not a stack's words).
    throw new PolicyError(fileError(file, e));
  }
  return st ? `${st.size}:${st.mtimeMs}:${st.ino}` : 'none';
}

// A long-lived process (loom serve) may trust a loaded policy for a short
// while before looking at its files again: two stat calls per decision are a
// tenth of a served decision's cost. The handler bundles each hold their own
// copy of this module, so the setting lives in the global symbol registry.
const RECHECK_MS = Symbol.for('loom.policy.recheckMs');

/** How long (ms) a policy is used before its files are checked again; 0 (the default) checks on every load. */
export function setPolicyRecheckMs(ms: number): void {
  (globalThis as Record<symbol, unknown>)[RECHECK_MS] = ms;
}

export function loadPolicy(packRoot: string, projectDir: string, hookPolicy: Record<string, unknown> = {}): Policy {
  // A team server's projects are on the developers' machines: the team's policy folder stands in (or none: the defaults).
  const remote = remoteProjects();
  if (remote) projectDir = remote.policyDir ?? NO_PROJECT_POLICY;
  const key = `${packRoot}\u0000${projectDir}\u0000${JSON.stringify(hookPolicy)}`;
  const hit = memo.get(key);
  const recheckMs = Number((globalThis as Record<symbol, unknown>)[RECHECK_MS] ?? 0);
  const now = recheckMs > 0 ? performance.now() : 0;
  if (hit && recheckMs > 0 && now - hit.checkedAt < recheckMs) return hit.policy;
  const files = `${stampOf(join(packRoot, 'config', 'policy.default.json'))}|${projectPolicyFile(projectDir) === undefined ? 'none' : stampOf(projectPolicyFile(projectDir)!)}`;
  // The packs the last build read count too (a new pack named in a policy changes that policy's own stamp).
  if (hit && hit.stamp === `${files}|${hit.packs.map(stampOf).join('|')}`) {
    hit.checkedAt = now;
    return hit.policy;
  }
  const packs: string[] = [];
  const policy = buildPolicy(packRoot, projectDir, hookPolicy, packs);
  if (memo.size > 64) memo.clear();
  memo.set(key, { stamp: `${files}|${packs.map(stampOf).join('|')}`, policy, checkedAt: now, packs });
  return policy;
}

function buildPolicy(packRoot: string, projectDir: string, hookPolicy: Record<string, unknown>, packFiles: string[] = []): Policy {
  const raw = cachedRaw(packRoot, projectDir, hookPolicy, packFiles);
  return {
    rules: raw.rules ?? {},
    protectedBranches: compileAll(raw.protectedBranches, `${join(projectDir, '.loom', 'policy.json')}: $.protectedBranches`),
    sensitivePaths: compileAll(raw.sensitivePaths, `${join(projectDir, '.loom', 'policy.json')}: $.sensitivePaths`),
    allowedOutsidePaths: compileAll(raw.allowedOutsidePaths, `${join(projectDir, '.loom', 'policy.json')}: $.allowedOutsidePaths`),
    ciConfigPaths: compileAll(raw.ciConfigPaths, `${join(projectDir, '.loom', 'policy.json')}: $.ciConfigPaths`),
    promptSecret: raw.promptSecret ?? 'deny',
    completionChecks: raw.completionChecks ?? [],
    maxConsecutiveStopBlocks: raw.maxConsecutiveStopBlocks ?? 3,
    compaction: { denyWhileTaskInProgress: raw.compaction?.denyWhileTaskInProgress ?? false, lastDecisions: raw.compaction?.lastDecisions ?? 20 },
    connectorAllowlist: raw.connectorAllowlist ?? [],
    dataHostAllowlist: raw.dataHostAllowlist ?? [],
    commandRules: compileRules(raw.commandRules ?? []),
  };
}

/**
 * Every argPattern linear and valid, checked per file as the merged policy is built (not on each load of its cached
 * copy): the error names the file and the rule's place in it, not its place among the packs' rules merged before it.
 */
function checkRulePatterns(rules: CommandRule[] | undefined, where: string): void {
  (rules ?? []).forEach((r, i) => {
    if (r.match.argPattern === undefined) return;
    try {
      assertLinearRegex(r.match.argPattern);
      new RegExp(r.match.argPattern, 'i');
    } catch (e) {
      throw new PolicyError(`${where}: $.commandRules[${i}].match.argPattern: ${(e as Error).message}`);
    }
  });
}

/** Patterns are compiled when a rule's command is first met: a pack of rules costs nothing to a call that runs none of its programs. */
function compileRules(rules: CommandRule[]): CompiledCommandRule[] {
  return compileCommandRules(rules, (source) => new RegExp(source, 'i'));
}

export function actionFor(policy: Policy, rule: string, fallback: Decision): Decision {
  return ownValue(policy.rules, rule) ?? fallback;
}
