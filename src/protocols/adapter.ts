// The seam between the runner and a harness dialect: every adapter turns the
// harness payload into canonical fields and renders the aggregate back.
import type { EventContract } from '../contract/events';
import type { Aggregate, HarnessName, RenderedAnswer } from '../contract/types';

export interface ProtocolAdapter {
  name: HarnessName;
  /** The event name this payload carries, in the harness's spelling. */
  eventOf(payload: Record<string, unknown>): string | undefined;
  render(agg: Aggregate, contract: EventContract | undefined, eventName: string): RenderedAnswer;
}

export function joinReasons(agg: Aggregate, fallback: string): string {
  const r = agg.reasons.filter(Boolean).join('; ');
  return r || fallback;
}
