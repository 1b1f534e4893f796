// Picks the adapter for an invocation. The protocols issue adds the other
// harnesses; until then every answer is in Claude Code's format.
import type { HarnessName } from '../contract/types';
import type { ProtocolAdapter } from './adapter';
import { claudeAdapter } from './claude';

const ADAPTERS: Partial<Record<HarnessName, ProtocolAdapter>> = { claude: claudeAdapter };

export const HARNESS_NAMES: readonly string[] = ['claude', 'codex', 'gemini', 'cursor', 'docker-agent', 'enterprise', 'auto'];

export function selectAdapter(requested: string | undefined, _payload: Record<string, unknown>): ProtocolAdapter {
  if (requested && requested !== 'auto') {
    const a = ADAPTERS[requested as HarnessName];
    if (a) return a;
  }
  return claudeAdapter;
}
