// Merging loom's hooks into a harness settings file and taking them out
// again. Every key and hook the user had stays as it was; loom's entries are
// recognised by their command (the pack's runner with --event and
// --harness), so a second install changes nothing and uninstall removes
// exactly what install added.
import type { Target } from './targets';

type Json = Record<string, unknown>;

export class SettingsError extends Error {}

const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

export function isLoomCommand(cmd: unknown, runner: string): boolean {
  return typeof cmd === 'string' && cmd.includes(`"${runner}" --event `);
}

/** A hook entry loom added: its runner command, or an http hook to a loom server (`<url>/hooks/<Event>`). */
function isLoomEntry(h: Record<string, unknown>, runner: string): boolean {
  return isLoomCommand(h.command, runner) || isLoomCommand(h.bash, runner) || (h.type === 'http' && typeof h.url === 'string' && /\/hooks\/[A-Za-z]+$/.test(h.url) && (h as { loom?: unknown }).loom === undefined && Array.isArray(h.allowedEnvVars) && h.allowedEnvVars.includes('LOOM_SERVE_TOKEN'));
}

function hooksObject(doc: Json, file: string): Json {
  if (doc.hooks === undefined) doc.hooks = {};
  if (!isObj(doc.hooks)) throw new SettingsError(`${file}: $.hooks is not an object; fix it before installing`);
  return doc.hooks;
}

/** Returns the number of hook entries added. */
export function addLoomHooks(doc: Json, t: Target, runner: string): number {
  if (t.versioned && doc.version === undefined) doc.version = 1;
  const hooks = hooksObject(doc, t.file);
  let added = 0;
  for (const event of t.events) {
    const list = hooks[event] ?? [];
    if (!Array.isArray(list)) throw new SettingsError(`${t.file}: $.hooks.${event} is not an array; fix it before installing`);
    const present = list.some((g) => (t.grouped ? isObj(g) && Array.isArray(g.hooks) && g.hooks.some((h) => isObj(h) && isLoomEntry(h, runner)) : isObj(g) && isLoomEntry(g, runner)));
    if (present) continue;
    list.push(t.grouped ? { ...t.group?.(event), hooks: [t.entry(event, runner)] } : t.entry(event, runner));
    hooks[event] = list;
    added++;
  }
  return added;
}

/** Returns the number of hook entries removed; groups and events loom emptied go too. */
export function removeLoomHooks(doc: Json, t: Target, runner: string): number {
  if (!isObj(doc.hooks)) return 0;
  const hooks = doc.hooks;
  let removed = 0;
  for (const [event, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) continue;
    const kept: unknown[] = [];
    for (const g of list) {
      if (t.grouped && isObj(g) && Array.isArray(g.hooks)) {
        const rest = g.hooks.filter((h) => !(isObj(h) && isLoomEntry(h, runner)));
        removed += g.hooks.length - rest.length;
        if (rest.length === g.hooks.length) kept.push(g);
        else if (rest.length) kept.push({ ...g, hooks: rest });
      } else if (!t.grouped && isObj(g) && isLoomEntry(g, runner)) removed++;
      else kept.push(g);
    }
    if (kept.length) hooks[event] = kept;
    else delete hooks[event];
  }
  return removed;
}
