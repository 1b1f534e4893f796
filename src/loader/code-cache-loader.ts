// Loads a bundled file through V8's code cache. Start-up is most of a
// hook's cost and compiling the bundles (and, on first call, their lazily
// compiled functions) is most of that; the cache, written after a run so it
// holds those functions too, cuts it several-fold. The cache lives in the
// pack's dist/.cache, as trusted as the code beside it (the guard denies any
// change to dist/). V8 rejects a cache built from other source or by
// another Node; then the file is compiled normally and the cache rewritten.
import fs = require('node:fs');
import path = require('node:path');
import vm = require('node:vm');
import { createRequire } from 'node:module';

const pending: (() => void)[] = [];

/** Runs `bundle` as if it were the module `shim` (its __dirname, require and exports). */
export function loadBundle(bundle: string, shim: NodeJS.Module, name: string): void {
  const source = fs.readFileSync(bundle, 'utf8');
  // dist/.cache beside every bundle of the pack (bundles live in dist/, dist/handlers/ and dist/hot/).
  const sub = path.basename(path.dirname(bundle));
  const distDir = sub === 'handlers' || sub === 'hot' ? path.dirname(path.dirname(bundle)) : path.dirname(bundle);
  const cacheFile = path.join(distDir, '.cache', `${name}.v8`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: bundle, cachedData });
  // The build's warm-up sets LOOM_CODE_CACHE_REFRESH so each call adds the functions it compiled.
  if (!cachedData || script.cachedDataRejected || process.env.LOOM_CODE_CACHE_REFRESH) {
    pending.push(() => {
      fs.mkdirSync(path.dirname(cacheFile), { recursive: true });
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, script.createCachedData());
      fs.renameSync(tmp, cacheFile);
    });
  }
  const fn = script.runInThisContext() as (e: unknown, r: NodeJS.Require, m: NodeJS.Module, f: string, d: string) => void;
  fn.call(shim.exports, shim.exports, createRequire(shim.filename), shim, shim.filename, path.dirname(shim.filename));
}

/** Writes the caches of bundles that had none (or a stale one); called just before the process exits. */
export function flushCodeCaches(): void {
  for (const write of pending.splice(0)) {
    try {
      write();
    } catch {
      // read-only install: compile every time
    }
  }
}

(globalThis as { __loomFlushCodeCaches?: () => void }).__loomFlushCodeCaches = flushCodeCaches;
