// Placeholder until the ledger lands: returns a problem string or undefined.
import type { Aggregate, HookDef } from '../contract/types';

export interface InvocationRecordInput {
  projectDir: string;
  payload: Record<string, unknown>;
  agg: Aggregate;
  harness: string;
  eventName: string;
  hooks: HookDef[];
}

export function recordInvocation(_input: InvocationRecordInput): string | undefined {
  return undefined;
}
