// Combines hook outcomes in config order (docker-agent's rules): deny > ask >
// allow, reasons and context joined in order, input patches applied in order.
import type { Aggregate, Decision, HookOutcome, Risk } from '../contract/types';
import { maxRisk } from '../contract/types';

const RANK: Record<Decision, number> = { allow: 1, ask: 2, deny: 3 };

export function emptyAggregate(event: string): Aggregate {
  return { event, failed: false, reasons: [], contexts: [], warnings: [], userMessages: [], risk: 'none', outcomes: [] };
}

function stronger(a: Decision | undefined, b: Decision): Decision {
  return a && RANK[a] >= RANK[b] ? a : b;
}

/** Folds one more outcome into the aggregate (called in config order). */
export function foldOutcome(agg: Aggregate, o: HookOutcome): void {
  agg.outcomes.push(o);
  const v = o.verdict;
  if (o.failure) {
    if (o.status === 'failed') {
      agg.failed = true;
      agg.decision = 'deny';
      agg.reasons.push(`hook "${o.hookId}" failed: ${o.failure.message}`);
    } else if (o.status === 'warned') {
      agg.warnings.push(`hook "${o.hookId}" ${o.failure.message}`);
    }
    return;
  }
  if (!v) return;
  if (v.risk) agg.risk = maxRisk(agg.risk, v.risk as Risk);
  if (v.status === 'blocked' || v.status === 'failed') {
    agg.failed = true;
    agg.decision = 'deny';
    agg.reasons.push(`hook "${o.hookId}" ${v.status}: ${v.reason ?? v.message ?? 'no reason given'}`);
    return;
  }
  if (v.decision) {
    agg.decision = stronger(agg.decision, v.decision);
    if (v.decision !== 'allow' && (v.reason ?? v.message)) agg.reasons.push(v.reason ?? v.message!);
  }
  if (v.status === 'warned' && v.message) agg.warnings.push(`hook "${o.hookId}": ${v.message}`);
  if (v.additionalContext) agg.contexts.push(v.additionalContext);
  if (v.userMessage) agg.userMessages.push(v.userMessage);
  if (v.halt && !agg.halt) agg.halt = v.halt;
  if (v.updatedInput) agg.updatedInput = { ...(agg.updatedInput ?? {}), ...v.updatedInput };
  if (v.updatedPrompt !== undefined) agg.updatedPrompt = v.updatedPrompt;
  if (v.updatedToolOutput !== undefined) agg.updatedToolOutput = v.updatedToolOutput;
}
