// Fuzzing the six added dialects: random payload shapes (keys dropped,
// types swapped, tool arguments as broken JSON strings, deep nesting) must
// never make an adapter throw, and a deny on a pre-tool event must always
// come out as that harness's block carrying a reason: Copilot and Crush as
// exit-0 deny JSON, the Claude family as exit 2 with stderr. Then the real
// runner gets mutated envelopes around a dangerous command: every one is
// blocked, none exits 1 (which Claude-style harnesses would let through).
import { describe, expect, it } from 'vitest';
import { contractFor } from '../../src/contract/events';
import type { HarnessName } from '../../src/contract/types';
import { ADAPTERS, selectAdapter } from '../../src/protocols';
import { emptyAggregate } from '../../src/runner/aggregate';
import { runHook, tempDir } from '../helpers';

const HARNESSES: HarnessName[] = ['opencode', 'kilo', 'copilot', 'qwen', 'droid', 'crush'];
const PRE: Record<string, string[]> = { copilot: ['PreToolUse', 'preToolUse'], crush: ['PreToolUse'], default: ['PreToolUse'] };

// A small seeded generator: failures replay.
function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

function junk(r: () => number, depth = 0): unknown {
  const k = Math.floor(r() * 8);
  if (depth > 3) return 'x';
  switch (k) {
    case 0: return null;
    case 1: return Math.floor(r() * 1e6) - 5e5;
    case 2: return '{"command": "rm -r .loom"'; // truncated JSON
    case 3: return ['rm', '-r', '.loom'];
    case 4: return { command: junk(r, depth + 1), path: junk(r, depth + 1) };
    case 5: return 'x'.repeat(Math.floor(r() * 5000));
    case 6: return true;
    default: return { [String.fromCharCode(97 + Math.floor(r() * 26))]: junk(r, depth + 1) };
  }
}

function envelope(h: string, r: () => number, command: unknown): Record<string, unknown> & { __mutated?: string[] } {
  const base: Record<string, unknown> =
    h === 'copilot' && r() < 0.5
      ? { sessionId: 's', timestamp: Date.now(), cwd: '/w', toolName: 'bash', toolArgs: r() < 0.5 ? JSON.stringify({ command }) : { command } }
      : h === 'crush'
        ? { event: 'PreToolUse', session_id: 's', cwd: '/w', tool_name: 'bash', tool_input: { command } }
        : { hook_event_name: 'PreToolUse', session_id: 's', cwd: '/w', timestamp: new Date().toISOString(), tool_name: h === 'droid' ? 'Execute' : h === 'qwen' ? 'run_shell_command' : 'bash', tool_input: { command } };
  const mutated: string[] = [];
  for (const key of Object.keys(base)) {
    const roll = r();
    if (roll < 0.1) delete base[key];
    else if (roll < 0.2) base[key] = junk(r);
    else continue;
    mutated.push(key);
  }
  Object.defineProperty(base, '__mutated', { value: mutated, enumerable: false });
  return base;
}

describe('added dialects under fuzzing', () => {
  it('adapters never throw, and a pre-tool deny is always the harness block with a reason', () => {
    const r = rng(0x10c0);
    const until = Date.now() + 3000;
    let n = 0;
    while (Date.now() < until) {
      const h = HARNESSES[n % HARNESSES.length];
      const p = envelope(h, r, junk(r));
      for (const ev of PRE[h] ?? PRE.default) {
        const a = selectAdapter(h, p, ev);
        const norm = a.normalize(p, a.eventOf(p) ?? ev);
        expect(norm.harness).toBe(h);
        const agg = emptyAggregate(ev);
        agg.decision = r() < 0.5 ? 'deny' : 'ask';
        agg.reasons.push('modify-loom: fuzz');
        const out = ADAPTERS[h].render(agg, contractFor(ev), ev, norm);
        if (h === 'copilot') expect(JSON.parse(out.stdout)).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('modify-loom') });
        else if (h === 'crush') expect(JSON.parse(out.stdout)).toMatchObject({ decision: 'deny', reason: expect.stringContaining('modify-loom') });
        else if (agg.decision === 'deny' || h === 'droid') expect([out.exitCode, out.stderr.includes('modify-loom')]).toEqual([2, true]);
        else expect(JSON.parse(out.stdout).hookSpecificOutput.permissionDecision).toBe('ask');
      }
      n++;
    }
    expect(n).toBeGreaterThan(100);
  });

  it('the real runner blocks a dangerous command in every mutated envelope it can read, and never exits 1 on one it cannot', async () => {
    const r = rng(0xbeef);
    const dir = tempDir('loom-fuzz-');
    for (let i = 0; i < 24; i++) {
      const h = HARNESSES[i % HARNESSES.length];
      const ev = (PRE[h] ?? PRE.default)[i % (PRE[h] ?? PRE.default).length];
      const p = envelope(h, r, 'rm -r .loom');
      const body = r() < 0.15 ? JSON.stringify(p).slice(0, -3) : JSON.stringify(p);
      const res = await runHook(['--event', ev, '--project-dir', dir, '--harness', h], body);
      expect(res.code, `${h} ${body.slice(0, 200)}\n${res.stderr}`).not.toBe(1);
      const blocked = res.code === 2 || /"(?:permissionDecision|decision)":"deny"/.test(res.stdout);
      // Unreadable JSON fails closed; a readable envelope whose tool name and arguments survived is the dangerous call.
      const toolKeys = ['tool_name', 'tool_input', 'toolName', 'toolArgs', 'hook_event_name', 'event'];
      const intact = !p.__mutated!.some((k) => toolKeys.includes(k));
      if (!body.endsWith('}') || intact) expect(blocked, `${h} ${body.slice(0, 200)}\n${res.stdout}${res.stderr}`).toBe(true);
    }
  });
});
