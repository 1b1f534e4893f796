// seed 000's platformDetection: process.platform -> registry platform name.
import type { HookDef, PlatformName } from '../contract/types';

const MAPPING: Record<string, PlatformName> = { linux: 'linux', darwin: 'macos', win32: 'windows' };

export function currentPlatform(nodePlatform: string = process.platform): PlatformName | undefined {
  return MAPPING[nodePlatform];
}

/** Why a hook must be skipped on this platform, or undefined when it may run. */
export function platformSkipReason(hook: HookDef, nodePlatform: string = process.platform): string | undefined {
  const p = currentPlatform(nodePlatform);
  if (!p) return `unknown platform "${nodePlatform}"`;
  if (hook.platforms && hook.platforms.length > 0 && !hook.platforms.includes(p)) {
    return `not declared for ${p} (platforms: ${hook.platforms.join(', ')})`;
  }
  return undefined;
}
