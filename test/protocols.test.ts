import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contractTableMarkdown, TABLE_END, TABLE_START } from '../src/contract/docs';
import { detectHarness, selectAdapter } from '../src/protocols';
import { BEHAVE, ROOT, runHook, tempDir, writeRegistry } from './helpers';

const REAL = join(ROOT, 'test', 'fixtures', 'real-payloads');
const real = (name: string) => JSON.parse(readFileSync(join(REAL, `${name}.json`), 'utf8')) as Record<string, unknown>;
const hasReal = (() => {
  try {
    return readdirSync(REAL).length > 0;
  } catch {
    return false;
  }
})();

// Payloads for the harnesses without captured fixtures, shaped after their docs.
const SYNTHETIC: Record<string, Record<string, unknown>> = {
  'cursor-beforeShellExecution': { hook_event_name: 'beforeShellExecution', conversation_id: 'c-1', generation_id: 'g-1', command: 'rm -rf /', cwd: '/home/dev/project', workspace_roots: ['/home/dev/project'] },
  'cursor-preToolUse': { hook_event_name: 'preToolUse', conversation_id: 'c-1', tool_name: 'Shell', tool_input: { command: 'ls' }, workspace_roots: ['/home/dev/project'] },
  'cursor-beforeSubmitPrompt': { hook_event_name: 'beforeSubmitPrompt', conversation_id: 'c-1', prompt: 'hello', workspace_roots: ['/w'] },
  'docker-pre_tool_use': { hook_event_name: 'pre_tool_use', session_id: 'd-1', cwd: '/w', tool_name: 'shell', tool_input: { cmd: 'ls' } },
  'docker-session_start': { hook_event_name: 'session_start', session_id: 'd-1', cwd: '/w', source: 'startup' },
  'enterprise-PreUserPromptSubmit': { hook_event_name: 'PreUserPromptSubmit', session_id: 'e-1', turn_id: 't-1', isFirstTurn: true, prompt: 'hi' },
  'enterprise-PreToolUse': { event: 'PreToolUse', hook_event_name: 'PreToolUse', session_id: 'e-1', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: '/w' },
  'enterprise-PreCompact': { event: 'PreCompact', hook_event_name: 'PreCompact', session_id: 'e-1', trigger: 'manual' },
  'enterprise-SkillAdded': { hook_event_name: 'SkillAdded', source: 'local_import', content_digest: 'x', skill: { name: 's', files: [] } },
};

describe('detection', () => {
  it.skipIf(!hasReal)('recognizes every captured real payload', () => {
    for (const f of readdirSync(REAL)) {
      const harness = f.split('-')[0];
      expect(detectHarness(real(f.replace(/\.json$/, ''))), f).toBe(harness);
    }
  });

  it('recognizes cursor, docker-agent and enterprise payloads', () => {
    for (const [name, p] of Object.entries(SYNTHETIC)) expect(detectHarness(p), name).toBe(name.startsWith('docker') ? 'docker-agent' : name.split('-')[0]);
  });

  it('falls back to Claude Code when unsure', () => {
    expect(detectHarness({})).toBe('claude');
    expect(detectHarness({ hook_event_name: 'PreToolUse', tool_name: 'Bash' })).toBe('claude');
  });
});

describe('normalization', () => {
  it('copies the payload without touching it, and a "__proto__" key stays plain data', () => {
    const raw = JSON.parse('{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_input":{"command":"ls"},"__proto__":{"tool_kind":"read","polluted":true}}') as Record<string, unknown>;
    const before = JSON.stringify(raw);
    const out = selectAdapter('claude', raw, 'PreToolUse').normalize(raw, 'PreToolUse');
    expect(JSON.stringify(raw)).toBe(before);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(out.tool_kind).toBe('shell');
    expect((out as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.keys(out)).toContain('__proto__');
    expect(out).toMatchObject({ harness: 'claude', session_id: 's', tool_input: { command: 'ls' } });
  });
});

describe('contract table', () => {
  it('the docs table (docs/harnesses.md) is the one generated from the code', () => {
    const readme = readFileSync(join(ROOT, 'docs', 'harnesses.md'), 'utf8');
    const a = readme.indexOf(TABLE_START);
    const b = readme.indexOf(TABLE_END);
    expect(a).toBeGreaterThan(0);
    expect(readme.slice(a + TABLE_START.length, b).trim(), 'docs/harnesses.md contract table is stale: run npm run docs').toBe(contractTableMarkdown());
  });
});

type Mode = 'deny' | 'ask' | 'context' | 'patch' | 'ok' | 'allow' | 'halt';

async function answer(payload: Record<string, unknown>, mode: Mode, opts: { event?: string; patch?: Record<string, unknown>; harness?: string } = {}) {
  const event = opts.event ?? (payload.hook_event_name as string);
  const cfg = writeRegistry({ [event]: [{ id: 'h', entry: BEHAVE, policy: { mode, reason: 'loom says no', context: 'remember the spec', patch: opts.patch } }] });
  const args = ['--event', event, '--config', cfg, '--project-dir', tempDir()];
  if (opts.harness) args.push('--harness', opts.harness);
  const r = await runHook(args, payload);
  return { ...r, json: r.stdout ? JSON.parse(r.stdout) : undefined };
}

describe.skipIf(!hasReal)('Claude Code answers (real payloads)', () => {
  it('PreToolUse deny: exit 2, reason on stderr, nothing on stdout', async () => {
    const r = await answer(real('claude-PreToolUse'), 'deny');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('loom says no');
  });
  it('PreToolUse ask and rewrite use hookSpecificOutput', async () => {
    const ask = await answer(real('claude-PreToolUse'), 'ask');
    expect(ask.json).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'please confirm' } });
    const patch = await answer(real('claude-PreToolUse'), 'patch', { patch: { command: 'ls' } });
    expect(patch.json).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'ls', description: 'test' } } });
  });
  it('SessionStart and UserPromptSubmit carry additionalContext; plain allow is silent', async () => {
    expect((await answer(real('claude-SessionStart'), 'context')).json).toEqual({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'remember the spec' } });
    expect((await answer(real('claude-UserPromptSubmit'), 'context')).json.hookSpecificOutput.additionalContext).toBe('remember the spec');
    const ok = await answer(real('claude-PostToolUse'), 'ok');
    expect([ok.code, ok.stdout]).toEqual([0, '']);
  });
  it('Stop deny blocks with exit 2', async () => {
    expect((await answer(real('claude-Stop'), 'deny')).code).toBe(2);
  });
  it('PermissionRequest deny uses decision.behavior', async () => {
    const r = await answer({ hook_event_name: 'PermissionRequest', session_id: 's', tool_name: 'Bash', tool_input: { command: 'x' } }, 'deny');
    expect(r.json).toEqual({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'loom says no' } } });
  });
});

describe.skipIf(!hasReal)('Codex answers only with fields it accepts (real payloads)', () => {
  it('allow without a rewrite is a silent exit 0', async () => {
    const r = await answer(real('codex-PreToolUse'), 'allow');
    expect([r.code, r.stdout]).toEqual([0, '']);
  });
  it('ask becomes a block with a non-empty stderr', async () => {
    const r = await answer(real('codex-PreToolUse'), 'ask');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('needs approval');
  });
  it('deny is exit 2 with the reason', async () => {
    const r = await answer(real('codex-PreToolUse'), 'deny');
    expect(r.code).toBe(2);
    expect(r.stderr.trim().length).toBeGreaterThan(0);
  });
  it('a rewrite is allow + updatedInput with a string command', async () => {
    const r = await answer(real('codex-PreToolUse'), 'patch', { patch: { command: 'ls -la' } });
    expect(r.json).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'ls -la' } } });
  });
  it('Stop always answers JSON on exit 0', async () => {
    const r = await answer(real('codex-Stop'), 'ok');
    expect([r.code, r.json]).toEqual([0, {}]);
  });
  it('SessionStart context', async () => {
    expect((await answer(real('codex-SessionStart'), 'context')).json).toEqual({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'remember the spec' } });
  });
});

describe.skipIf(!hasReal)('Gemini CLI answers (real payloads)', () => {
  it('BeforeTool deny is exit 2; rewrite merges through tool_input', async () => {
    expect((await answer(real('gemini-BeforeTool'), 'deny')).code).toBe(2);
    const r = await answer(real('gemini-BeforeTool'), 'patch', { patch: { command: 'ls' } });
    expect(r.json).toEqual({ hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: { command: 'ls', description: 'test' } }, decision: 'allow' });
  });
  it('BeforeAgent context and AfterAgent block', async () => {
    expect((await answer(real('gemini-BeforeAgent'), 'context')).json).toEqual({ hookSpecificOutput: { hookEventName: 'BeforeAgent', additionalContext: 'remember the spec' } });
    expect((await answer(real('gemini-AfterAgent'), 'deny')).code).toBe(2);
  });
  it('handlers see the canonical event, not the dialect', async () => {
    const cfg = writeRegistry({ BeforeAgent: [{ id: 'h', entry: BEHAVE, policy: { mode: 'event' } }] });
    const r = await runHook(['--event', 'BeforeAgent', '--config', cfg, '--project-dir', tempDir()], real('gemini-BeforeAgent'));
    expect(JSON.parse(r.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'BeforeAgent', additionalContext: 'event=UserPromptSubmit' } });
  });
});

describe('stopping the agent and telling the user', () => {
  it('Claude Code: continue:false with stopReason and systemMessage', async () => {
    const r = await answer({ hook_event_name: 'PostToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command: 'x' } }, 'halt');
    expect(r.json).toEqual({ continue: false, stopReason: 'budget exhausted', systemMessage: 'loom stopped the session' });
  });
  it('Codex: continue:false where it accepts it, never on PreToolUse', async () => {
    const stop = await answer({ hook_event_name: 'Stop', session_id: 's', turn_id: 't' }, 'halt');
    expect(stop.json).toEqual({ continue: false, stopReason: 'budget exhausted' });
    const pre = await answer({ hook_event_name: 'PreToolUse', session_id: 's', turn_id: 't', tool_name: 'Bash', tool_input: { command: 'ls' } }, 'halt');
    expect([pre.code, pre.stdout]).toEqual([0, '']);
  });
  it('Gemini CLI: continue:false, stopReason, systemMessage', async () => {
    const r = await answer({ hook_event_name: 'AfterTool', session_id: 's', timestamp: 't', tool_name: 'run_shell_command', tool_input: { command: 'x' } }, 'halt');
    expect(r.json).toEqual({ continue: false, stopReason: 'budget exhausted', systemMessage: 'loom stopped the session' });
  });
});

describe('Cursor, docker-agent and enterprise answers', () => {
  it('Cursor shell deny: permission JSON and exit 2', async () => {
    const r = await answer(SYNTHETIC['cursor-beforeShellExecution'], 'deny');
    expect(r.code).toBe(2);
    expect(r.json).toEqual({ permission: 'deny', user_message: 'loom: loom says no', agent_message: 'loom says no' });
  });
  it('Cursor preToolUse ask and rewrite', async () => {
    expect((await answer(SYNTHETIC['cursor-preToolUse'], 'ask')).json).toEqual({ permission: 'ask', user_message: 'loom: please confirm', agent_message: 'please confirm' });
    expect((await answer(SYNTHETIC['cursor-preToolUse'], 'patch', { patch: { command: 'pwd' } })).json).toEqual({ permission: 'allow', updated_input: { command: 'pwd' } });
  });
  it('Cursor prompt block is continue:false', async () => {
    expect((await answer(SYNTHETIC['cursor-beforeSubmitPrompt'], 'deny')).json).toEqual({ continue: false, user_message: 'loom: loom says no' });
  });
  it('docker-agent ask and context use hook_specific_output; never decision other than block', async () => {
    expect((await answer(SYNTHETIC['docker-pre_tool_use'], 'ask')).json).toEqual({ hook_specific_output: { hook_event_name: 'pre_tool_use', permission_decision: 'ask', permission_decision_reason: 'please confirm' } });
    expect((await answer(SYNTHETIC['docker-session_start'], 'context')).json).toEqual({ hook_specific_output: { hook_event_name: 'session_start', additional_context: 'remember the spec' } });
    expect((await answer(SYNTHETIC['docker-pre_tool_use'], 'deny')).code).toBe(2);
  });
  it('enterprise prompt answers echo isFirstTurn; blocks are JSON', async () => {
    expect((await answer(SYNTHETIC['enterprise-PreUserPromptSubmit'], 'ok')).json).toEqual({ decision: 'allow', isFirstTurn: true });
    expect((await answer(SYNTHETIC['enterprise-PreUserPromptSubmit'], 'deny')).json).toEqual({ decision: 'block', reason: 'loom says no', isFirstTurn: true });
    const pre = await answer(SYNTHETIC['enterprise-PreToolUse'], 'ask');
    expect(pre.json).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'please confirm' } });
    expect((await answer(SYNTHETIC['enterprise-PreCompact'], 'deny')).json).toEqual({ decision: 'deny', reason: 'loom says no' });
    expect((await answer(SYNTHETIC['enterprise-SkillAdded'], 'ok')).json).toEqual({ decision: 'allow' });
  });
});
