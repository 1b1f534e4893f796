// The pack's own handlers bundled into the runner (dist/hot/*.js, one bundle
// per event: issue 17 §3), by handler name (handlers/<name>.cjs). A registry
// entry that resolves to exactly that shim runs the inlined function: no
// second bundle, no require. Any other entry is loaded from its file.
import type { HandlerContext } from '../contract/types';

export type PackHandlerFn = (ctx: HandlerContext) => unknown;

const inlined = new Map<string, PackHandlerFn>();

export function registerPackHandlers(handlers: Record<string, PackHandlerFn>): void {
  for (const [name, fn] of Object.entries(handlers)) if (typeof fn === 'function') inlined.set(name, fn);
}

export function inlinedPackHandler(name: string): PackHandlerFn | undefined {
  return inlined.get(name);
}
