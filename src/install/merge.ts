// Merging loom's hooks into a harness settings file and taking them out
// again. Every key and hook the user had stays as it was; loom's entries are
// recognised by their command (loom's runner with --event, whichever form
// and pack path), so a second install changes nothing, an older loom entry
// is brought up to date in place, and uninstall removes exactly what install
// added.
import { isLoomHookCommand, type RunnerLocation } from './hook-command';
import type { Target } from './targets';

type Json = Record<string, unknown>;

export class SettingsError extends Error {}

const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

const isLoomCommand = isLoomHookCommand;

/** A hook entry loom added: its runner command, or an http hook to a loom server (`<url>/hooks/<Event>`). */
function isLoomEntry(h: Record<string, unknown>): boolean {
  return isLoomCommand(h.command) || isLoomCommand(h.bash) || (h.type === 'http' && typeof h.url === 'string' && /\/hooks\/[A-Za-z]+$/.test(h.url) && (h as { loom?: unknown }).loom === undefined && Array.isArray(h.allowedEnvVars) && h.allowedEnvVars.includes('LOOM_SERVE_TOKEN'));
}

function hooksObject(doc: Json, file: string): Json {
  if (doc.hooks === undefined) doc.hooks = {};
  if (!isObj(doc.hooks)) throw new SettingsError(`${file}: $.hooks is not an object; fix it before installing`);
  return doc.hooks;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
/** Matchers that match every tool (as loom writes them, or as a user would). */
const ALL_TOOLS = /^(?:\*|\.\*|)$/;

/** Returns the number of hook entries added or brought up to date. */
export function addLoomHooks(doc: Json, t: Target, where: RunnerLocation): number {
  if (t.versioned && doc.version === undefined) doc.version = 1;
  const hooks = hooksObject(doc, t.file);
  let changed = 0;
  for (const event of t.events) {
    const list = hooks[event] ?? [];
    if (!Array.isArray(list)) throw new SettingsError(`${t.file}: $.hooks.${event} is not an array; fix it before installing`);
    const want = t.entry(event, where);
    let present = false;
    // An entry of an older loom (another command form or pack path) is replaced where it stands.
    const replace = (h: Json): Json => {
      present = true;
      if (sameJson(h, want)) return h;
      changed++;
      return want;
    };
    const wantGroup = t.group?.(event);
    for (let i = 0; i < list.length; i++) {
      const g = list[i];
      if (t.grouped && isObj(g) && Array.isArray(g.hooks)) {
        // A group whose matcher is not loom's (narrowed to `Bash`, say) lets other tools past the guard: loom's entry
        // leaves it (the user's own hooks there keep their matcher) and comes back in a group of its own.
        if (g.matcher !== undefined && !sameJson(g.matcher, wantGroup?.matcher) && !ALL_TOOLS.test(String(g.matcher)) && g.hooks.some((h) => isObj(h) && isLoomEntry(h))) {
          g.hooks = g.hooks.filter((h) => !(isObj(h) && isLoomEntry(h)));
          changed++;
          continue;
        }
        g.hooks = g.hooks.map((h) => (isObj(h) && isLoomEntry(h) ? replace(h) : h));
      } else if (!t.grouped && isObj(g) && isLoomEntry(g)) list[i] = replace(g);
    }
    // Groups emptied above go.
    if (t.grouped) for (let i = list.length - 1; i >= 0; i--) if (isObj(list[i]) && Array.isArray((list[i] as Json).hooks) && ((list[i] as Json).hooks as unknown[]).length === 0) list.splice(i, 1);
    if (present) continue;
    list.push(t.grouped ? { ...t.group?.(event), hooks: [want] } : want);
    hooks[event] = list;
    changed++;
  }
  return changed;
}

/** Returns the number of hook entries removed; groups and events loom emptied go too. */
export function removeLoomHooks(doc: Json, t: Target): number {
  if (!isObj(doc.hooks)) return 0;
  const hooks = doc.hooks;
  let removed = 0;
  for (const [event, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) continue;
    const kept: unknown[] = [];
    for (const g of list) {
      if (t.grouped && isObj(g) && Array.isArray(g.hooks)) {
        const rest = g.hooks.filter((h) => !(isObj(h) && isLoomEntry(h)));
        removed += g.hooks.length - rest.length;
        if (rest.length === g.hooks.length) kept.push(g);
        else if (rest.length) kept.push({ ...g, hooks: rest });
      } else if (!t.grouped && isObj(g) && isLoomEntry(g)) removed++;
      else kept.push(g);
    }
    if (kept.length) hooks[event] = kept;
    else delete hooks[event];
  }
  return removed;
}
