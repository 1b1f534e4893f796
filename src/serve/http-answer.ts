// Over HTTP there is no exit code: a block must be the JSON the harness
// reads as one (Claude Code: a non-2xx status never blocks, so loom always
// answers 200 with a JSON decision).
import type { EventContract } from '../contract/events';
import type { RenderedAnswer } from '../contract/types';

export function httpBody(answer: RenderedAnswer, contract: EventContract | undefined, eventName: string): Record<string, unknown> {
  const reason = answer.stderr
    .split('\n')
    .filter((l) => l.startsWith('loom: '))
    .map((l) => l.slice(6))
    .join('; ');
  if (answer.exitCode === 2) {
    // Over HTTP no exit code is read: the body says block in Claude Code's words, and in the words of the
    // client's own dialect when it has some (Cursor's `permission`, Gemini CLI's `decision`), which win a clash.
    const own = jsonObject(answer.stdout);
    if ((contract?.name ?? eventName) === 'PreToolUse') return { hookSpecificOutput: { hookEventName: eventName, permissionDecision: 'deny', permissionDecisionReason: reason || 'blocked by loom policy' }, ...own };
    return { decision: 'block', reason: reason || 'blocked by loom policy', ...own };
  }
  let body: Record<string, unknown> = {};
  if (answer.stdout.trim()) body = JSON.parse(answer.stdout) as Record<string, unknown>;
  if (answer.exitCode !== 0 && reason) body.systemMessage = `loom: ${reason}`;
  // A record stored with something to say (a plain ledger under a key): the hook would print it on stderr; over HTTP it is the system message.
  else if (answer.exitCode === 0 && /^loom: ledger: /m.test(answer.stderr) && body.systemMessage === undefined) {
    body.systemMessage = answer.stderr.split('\n').filter((l) => l.startsWith('loom: ledger: ')).join('; ');
  }
  return body;
}

function jsonObject(text: string): Record<string, unknown> {
  if (!text.trim().startsWith('{')) return {};
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
