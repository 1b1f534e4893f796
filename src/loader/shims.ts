// The small committed files that start each bundle: hooks/run-hook.js for the
// runner and handlers/<name>.cjs per handler. They are generated (by
// scripts/build.ts) and committed, so the repository shows the runner and
// handlers it is made of; a test holds the committed copies to this text.
//
// The runner's shim picks one bundle per call (issue 17 §3): the event's
// bundle in dist/hot/, the runner with the pack's handlers for that event
// inlined (config/hooks.json decides which), or dist/runner.js for anything
// else (an event or hook id it does not know: the runner then loads each
// handler from its file, as it always could).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVENT_CONTRACTS } from '../contract/events';

export function shimSource(bundle: string, name: string, distFromShim = '../dist'): string {
  return `'use strict';
// Built by scripts/build.ts: runs ${bundle} through V8's code cache (see docs/runner.md).
require('${distFromShim}/loader.js').loadBundle(require('node:path').join(__dirname, '${distFromShim}', '${bundle}'), module, '${name}');
`;
}

export interface HotPlan {
  /** Bundle name (handler names joined by '+') -> the handlers/<name>.cjs it inlines, in registry order. */
  bundles: Map<string, string[]>;
  /** Any spelling of an event (every harness's) -> its bundle. */
  events: Record<string, string>;
  /** Hook id -> its bundle. */
  ids: Record<string, string>;
}

const PACK_ENTRY = /^\.\.\/handlers\/([a-z0-9-]+)\.cjs$/;

/** Which bundle serves which event and hook id, from the pack's own registry (config/hooks.json). */
export function hotPlan(root: string): HotPlan {
  const plan: HotPlan = { bundles: new Map(), events: {}, ids: {} };
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(readFileSync(join(root, 'config/hooks.json'), 'utf8')) as Record<string, unknown>;
  } catch {
    return plan;
  }
  const byEvent = new Map<string, string>();
  for (const [event, hooks] of Object.entries(doc)) {
    if (event.startsWith('$') || !Array.isArray(hooks) || hooks.length === 0) continue;
    const names: string[] = [];
    for (const h of hooks as { id?: unknown; entry?: unknown }[]) {
      const m = typeof h.entry === 'string' ? PACK_ENTRY.exec(h.entry) : null;
      if (!m) {
        names.length = 0;
        break;
      }
      names.push(m[1]);
      if (typeof h.id === 'string' && !Object.hasOwn(plan.ids, h.id)) plan.ids[h.id] = m[1];
    }
    if (!names.length) continue;
    const bundle = names.join('+');
    plan.bundles.set(bundle, names);
    byEvent.set(event, bundle);
  }
  for (const c of EVENT_CONTRACTS) {
    const bundle = byEvent.get(c.name);
    if (!bundle) continue;
    for (const n of [c.name, ...Object.values(c.names).flat()]) if (n && !Object.hasOwn(plan.events, n)) plan.events[n] = bundle;
  }
  for (const [event, bundle] of byEvent) if (!Object.hasOwn(plan.events, event)) plan.events[event] = bundle;
  // A hook id's bundle holds just its handler.
  for (const name of Object.values(plan.ids)) if (!plan.bundles.has(name)) plan.bundles.set(name, [name]);
  return plan;
}

const table = (t: Record<string, string>) =>
  `{ __proto__: null, ${Object.keys(t)
    .sort()
    .map((k) => `${JSON.stringify(k)}: ${JSON.stringify(t[k])}`)
    .join(', ')} }`;

export function runnerShimSource(plan: HotPlan): string {
  return `'use strict';
// Built by scripts/build.ts: runs the runner through V8's code cache (see docs/runner.md), as
// dist/hot/<handlers>.js (the pack's handlers for the event inlined) when config/hooks.json
// names them for the event or hook id, else as dist/runner.js.
const events = ${table(plan.events)};
const ids = ${table(plan.ids)};
const a = process.argv;
let b = a[2] && a[2][0] !== '-' ? ids[a[2]] : undefined;
for (let i = 2; i < a.length; i++) {
  if (a[i] === '--event') b = events[a[i + 1]];
  else if (a[i].startsWith('--event=')) b = events[a[i].slice(8)];
}
require('../dist/loader.js').loadBundle(require('node:path').join(__dirname, '../dist', b ? 'hot/' + b + '.js' : 'runner.js'), module, b ? 'hot-' + b : 'runner');
`;
}

/** Every shim, by path relative to the package root: the runner's and one per src/handlers/*.ts. */
export function shimFiles(root: string): Map<string, string> {
  const out = new Map<string, string>([['hooks/run-hook.js', runnerShimSource(hotPlan(root))]]);
  let entries: string[] = [];
  try {
    entries = readdirSync(join(root, 'src/handlers')).filter((f) => f.endsWith('.ts')).sort();
  } catch {
    entries = [];
  }
  for (const f of entries) {
    const name = f.replace(/\.ts$/, '');
    out.set(`handlers/${name}.cjs`, shimSource(`handlers/${name}.js`, `handler-${name}`));
  }
  return out;
}
