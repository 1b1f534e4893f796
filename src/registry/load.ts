// Reads config/hooks.json (either format of seed 000), checks it against the
// schema compiled at build time, and flattens it to one HookDef per hook.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Fallback, HookDef, PlatformName } from '../contract/types';
import { validateArrayRegistry, validateObjectRegistry, type AjvError } from '../generated/registry-validators';
import { jsonPointerToPath } from '../util/json-path';
import { sha256Hex } from '../util/sha256';
import { mkdirBounded } from '../util/bounded-mkdir';
import { fileReason } from '../util/file-reason';
import { NotRegularError, readRegularFile } from '../util/read-regular';

export class RegistryError extends Error {
  constructor(
    public readonly file: string,
    public readonly problems: string[],
  ) {
    super(problems.map((p) => `${file}: ${p}`).join('\n'));
  }
}

export const MAX_REGISTRY_BYTES = 4 * 1024 * 1024;

interface RawHook {
  id: string;
  entry: string;
  event?: string;
  events?: string[];
  description?: string;
  platforms?: PlatformName[];
  timeoutMs?: number;
  blocking?: boolean;
  idempotent?: boolean;
  fallback?: Fallback;
  retryCount?: number;
  policy?: Record<string, unknown>;
}

function formatAjv(errors: AjvError[] | null | undefined): string[] {
  return (errors ?? []).map((e) => {
    let detail = e.message ?? e.keyword;
    if (e.keyword === 'enum' && Array.isArray(e.params.allowedValues)) detail += ` (${(e.params.allowedValues as unknown[]).join(', ')})`;
    if (e.keyword === 'required') detail = `missing required property "${String(e.params.missingProperty)}"`;
    return `${jsonPointerToPath(e.instancePath)}: ${detail}`;
  });
}

function resolveFallback(h: RawHook): Fallback {
  if (h.fallback) return h.fallback;
  return h.blocking ? 'error' : 'warn';
}

function toDef(h: RawHook, events: string[]): HookDef {
  return {
    id: h.id,
    events,
    entry: h.entry,
    description: h.description,
    platforms: h.platforms,
    timeoutMs: h.timeoutMs ?? 10000,
    blocking: h.blocking ?? false,
    fallback: resolveFallback(h),
    retryCount: h.retryCount ?? 2,
    idempotent: h.idempotent ?? true,
    policy: h.policy ?? {},
  };
}

/** Parse and validate registry text. Throws RegistryError listing every problem with its JSON path. */
export function parseRegistry(text: string, file: string): HookDef[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new RegistryError(file, [`$: invalid JSON: ${(e as Error).message}`]);
  }
  const problems: string[] = [];
  const defs: HookDef[] = [];
  if (Array.isArray(doc)) {
    if (!validateArrayRegistry(doc)) throw new RegistryError(file, formatAjv(validateArrayRegistry.errors));
    (doc as RawHook[]).forEach((h, i) => {
      const events = h.events ?? (h.event ? [h.event] : []);
      if (events.length === 0) problems.push(`$[${i}]: a hook in the flat format needs "event" or "events"`);
      defs.push(toDef(h, events));
    });
  } else if (doc !== null && typeof doc === 'object') {
    const top = doc as Record<string, unknown>;
    // Seed 000 also wraps the event groups in a "hooks" member ({"hooks": {"PreToolUse": [...]}}).
    const inner = top.hooks;
    const wrapped = inner !== null && typeof inner === 'object';
    if (wrapped) {
      const others = Object.keys(top).filter((k) => k !== 'hooks' && k !== '$schema' && k !== '$comment' && k !== 'version' && k !== 'description');
      if (others.length) throw new RegistryError(file, [`$.${others[0]}: unexpected beside "hooks" (put every event group inside "hooks")`]);
      try {
        return parseRegistry(JSON.stringify(inner), file);
      } catch (e) {
        // Paths inside the wrapper are named from the document's root.
        if (e instanceof RegistryError) throw new RegistryError(file, e.problems.map((p) => (p.startsWith('$') ? `$.hooks${p.slice(1)}` : p)));
        throw e;
      }
    }
    const groups = { ...top };
    // Editors add these; they are not event groups.
    delete groups.$schema;
    delete groups.$comment;
    if (!validateObjectRegistry(groups)) throw new RegistryError(file, formatAjv(validateObjectRegistry.errors));
    const byId = new Map<string, HookDef>();
    for (const [event, hooks] of Object.entries(groups as Record<string, RawHook[]>)) {
      hooks.forEach((h, i) => {
        if (h.event && h.event !== event) problems.push(`$.${event}[${i}].event: "${h.event}" differs from its group "${event}"`);
        const events = h.events && h.events.length ? h.events : [event];
        const seen = byId.get(h.id);
        // The same hook listed under several groups is one hook with several events.
        if (seen && seen.entry === h.entry) {
          for (const ev of events) if (!seen.events.includes(ev)) seen.events.push(ev);
          return;
        }
        const def = toDef(h, events);
        byId.set(h.id, def);
        defs.push(def);
      });
    }
  } else {
    throw new RegistryError(file, ['$: the registry must be an object keyed by event or an array of hooks']);
  }
  const ids = new Map<string, number>();
  for (const d of defs) ids.set(d.id, (ids.get(d.id) ?? 0) + 1);
  for (const [id, n] of ids) if (n > 1) problems.push(`$: hook id "${id}" is defined ${n} times with different entries`);
  if (problems.length) throw new RegistryError(file, problems);
  return defs;
}

/**
 * Like loadRegistry, but remembers the flattened result of a registry text
 * that already passed validation (keyed by its exact text) in
 * cacheDir, which belongs to the pack and is as trusted as its code. The
 * validator is big; skipping it saves more than a millisecond per hook call.
 */
export function loadRegistryCached(file: string, cacheDir: string | undefined): HookDef[] {
  if (!cacheDir) return loadRegistry(file);
  const text = readRegistryText(file);
  const cacheFile = join(cacheDir, `registry-${sha256Hex(file).slice(0, 16)}.json`);
  try {
    const cached = JSON.parse(readFileSync(cacheFile, 'utf8')) as { text: string; defs: HookDef[] };
    if (cached.text === text && Array.isArray(cached.defs)) return cached.defs;
  } catch {
    // no cache yet, or unreadable: validate
  }
  const defs = parseRegistry(text, file);
  try {
    mkdirBounded(cacheDir);
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ text, defs }));
    renameSync(tmp, cacheFile);
  } catch {
    // read-only install: validate every time
  }
  return defs;
}

function readRegistryText(file: string): string {
  try {
    // A FIFO or /dev/zero named by LOOM_CONFIG would block or grow forever: read as a bounded regular file.
    const text = readRegularFile(file, MAX_REGISTRY_BYTES);
    if (text === undefined) throw new RegistryError(file, ['cannot read registry: no such file (ENOENT)']);
    return text;
  } catch (e) {
    if (e instanceof RegistryError) throw e;
    if (e instanceof NotRegularError) throw new RegistryError(file, [`cannot read registry: ${e.why}`]);
    throw new RegistryError(file, [`cannot read registry: ${fileReason(e)}`]);
  }
}

export function loadRegistry(file: string): HookDef[] {
  return parseRegistry(readRegistryText(file), file);
}
