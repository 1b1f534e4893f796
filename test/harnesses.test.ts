// The six harnesses added to the three the e2e suite drives: each payload
// shape (from each CLI's real runs and docs, see docs/harnesses.md) goes
// through the REAL runner process with the shipped registry and guards, in
// a temp project. What a user notices: the dangerous call is blocked in the
// way that harness shows the model loom's reason, a harmless call runs, and
// the ledger says which harness acted under its own session id.
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectHarness } from '../src/protocols';
import { CLI, ROOT, run, runHook, tempDir } from './helpers';

interface Shape {
  harness: string;
  /** The event as the hook file names it (passed as --event, as installed). */
  event: string;
  payload(cwd: string, command: string): Record<string, unknown>;
  session: string;
}

const ISO = '2026-11-30T21:04:05.123Z';

// One pre-tool shape per harness and dialect, shaped like the real payloads.
const SHAPES: Record<string, Shape> = {
  'copilot PascalCase': {
    harness: 'copilot',
    event: 'PreToolUse',
    session: 'b3c1d2e4-copilot-pascal',
    payload: (cwd, command) => ({ hook_event_name: 'PreToolUse', session_id: 'b3c1d2e4-copilot-pascal', cwd, timestamp: ISO, tool_name: 'Bash', tool_input: { command, description: 'x' } }),
  },
  'copilot camelCase': {
    harness: 'copilot',
    event: 'preToolUse',
    session: 'b3c1d2e4-copilot-camel',
    payload: (cwd, command) => ({ sessionId: 'b3c1d2e4-copilot-camel', timestamp: 1764536645123, cwd, toolName: 'bash', toolArgs: JSON.stringify({ command, description: 'x' }) }),
  },
  qwen: {
    harness: 'qwen',
    event: 'PreToolUse',
    session: '7f0e-qwen-session',
    payload: (cwd, command) => ({ session_id: '7f0e-qwen-session', transcript_path: join(cwd, '.qwen', 't.jsonl'), cwd, hook_event_name: 'PreToolUse', timestamp: ISO, permission_mode: 'yolo', tool_name: 'run_shell_command', tool_input: { command }, tool_use_id: 'toolu_1', tool_call_id: 'call_1' }),
  },
  droid: {
    harness: 'droid',
    event: 'PreToolUse',
    session: '5a6b-droid-session',
    payload: (cwd, command) => ({ session_id: '5a6b-droid-session', transcript_path: '/home/dev/.factory/sessions/x.jsonl', cwd, hook_event_name: 'PreToolUse', permission_mode: 'auto-high', tool_name: 'Execute', tool_input: { command, riskLevel: 'low', riskLevelReason: 'cleanup', summary: 'clean' } }),
  },
  crush: {
    harness: 'crush',
    event: 'PreToolUse',
    session: '313909e-crush',
    payload: (cwd, command) => ({ event: 'PreToolUse', session_id: '313909e-crush', cwd, tool_name: 'bash', tool_input: { command } }),
  },
  'opencode plugin': {
    harness: 'opencode',
    event: 'PreToolUse',
    session: 'ses_opencode1',
    payload: (cwd, command) => ({ hook_event_name: 'PreToolUse', cwd, session_id: 'ses_opencode1', tool_name: 'bash', tool_input: { command, description: 'x' }, tool_use_id: 'call_1' }),
  },
  'kilo plugin': {
    harness: 'kilo',
    event: 'PreToolUse',
    session: 'ses_kilo1',
    payload: (cwd, command) => ({ hook_event_name: 'PreToolUse', cwd, session_id: 'ses_kilo1', tool_name: 'bash', tool_input: { command }, tool_use_id: 'call_1' }),
  },
};

function project(): string {
  const dir = tempDir('loom-harness-');
  mkdirSync(join(dir, '.loom'), { recursive: true });
  writeFileSync(join(dir, '.loom', 'victim.txt'), 'must survive\n');
  return dir;
}

async function history(dir: string): Promise<Record<string, unknown>[]> {
  const r = await run(process.execPath, [CLI, 'history', '--project-dir', dir, '--json'], null);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

/** What the model would read back from the harness, per harness protocol. */
function reasonShown(harness: string, r: { code: number | null; stdout: string; stderr: string }): string {
  if (harness === 'copilot') {
    expect(r.code).toBe(0);
    const a = JSON.parse(r.stdout);
    expect(a.permissionDecision).toBe('deny');
    return a.permissionDecisionReason;
  }
  if (harness === 'crush') {
    expect(r.code).toBe(0);
    const a = JSON.parse(r.stdout);
    expect(a.decision).toBe('deny');
    return a.reason;
  }
  expect(r.code).toBe(2);
  return r.stderr;
}

describe('each harness dialect through the real runner', () => {
  for (const [name, s] of Object.entries(SHAPES)) {
    it(`${name}: a delete of .loom/ is blocked with loom's reason where the model reads it; a harmless call is allowed; records name ${s.harness}`, async () => {
      const dir = project();
      // --harness as installed, and auto-detection on the same payload (the plugin always names its harness).
      const plugin = s.harness === 'opencode' || s.harness === 'kilo';
      for (const args of plugin ? [['--harness', s.harness]] : [['--harness', s.harness], []]) {
        const bad = await runHook(['--event', s.event, '--project-dir', dir, ...args], s.payload(dir, 'rm -r .loom'));
        expect(reasonShown(s.harness, bad)).toMatch(/modify-loom/);
        const good = await runHook(['--event', s.event, '--project-dir', dir, ...args], s.payload(dir, 'ls -la'));
        expect(good.code, good.stderr).toBe(0);
        expect(good.stdout).not.toMatch(/deny|block/);
      }
      const recs = (await history(dir)).filter((r) => r.event === 'PreToolUse');
      expect(recs.length).toBe(plugin ? 2 : 4);
      for (const r of recs) expect([r.harness, r.session_id]).toEqual([s.harness, s.session]);
      expect(recs.filter((r) => r.decision === 'deny').length).toBe(plugin ? 1 : 2);
    });
  }

  it('real captured pre-tool payloads (Copilot both dialects, Qwen, droid), auto-detected: the delete is blocked where the model reads it and recorded under the real session id', async () => {
    const REAL = join(ROOT, 'test', 'fixtures', 'real-payloads');
    for (const [file, event] of [['copilot-PreToolUse', 'PreToolUse'], ['copilot-camelCase-preToolUse', 'preToolUse'], ['qwen-PreToolUse', 'PreToolUse'], ['droid-PreToolUse', 'PreToolUse']]) {
      const dir = project();
      const p = JSON.parse(readFileSync(join(REAL, `${file}.json`), 'utf8')) as Record<string, unknown>;
      p.cwd = dir;
      const args = (p.tool_input ?? p.toolArgs) as Record<string, unknown>;
      args.command = 'rm -r .loom';
      const harness = file.split('-')[0];
      const r = await runHook(['--event', event, '--project-dir', dir], p);
      expect(reasonShown(harness, r), file).toMatch(/modify-loom/);
      const rec = (await history(dir)).find((x) => x.event === 'PreToolUse');
      expect([rec?.harness, rec?.session_id, rec?.decision], file).toEqual([harness, p.session_id ?? p.sessionId, 'deny']);
    }
  });

  it('auto-detection tells the new dialects from Gemini, Cursor, Claude and each other', () => {
    for (const [name, s] of Object.entries(SHAPES)) {
      if (s.harness === 'opencode' || s.harness === 'kilo') continue; // the plugin always names its harness
      expect(detectHarness(s.payload('/w', 'ls'), s.event), name).toBe(s.harness);
    }
    expect(detectHarness({ hook_event_name: 'BeforeTool', timestamp: ISO, session_id: 's', tool_name: 'run_shell_command' })).toBe('gemini');
    expect(detectHarness({ hook_event_name: 'SessionStart', timestamp: ISO, session_id: 's', source: 'startup', transcript_path: '/home/dev/.gemini/tmp/x/chats/s.jsonl' })).toBe('gemini');
    expect(detectHarness({ hook_event_name: 'SessionStart', timestamp: ISO, session_id: 's', source: 'new', initial_prompt: 'go' })).toBe('copilot');
    expect(detectHarness({ hook_event_name: 'UserPromptSubmit', timestamp: ISO, session_id: 's', prompt: 'hi' })).toBe('copilot');
    expect(detectHarness({ hook_event_name: 'UserPromptSubmit', timestamp: ISO, session_id: 's', prompt: 'hi', permission_mode: 'yolo' })).toBe('qwen');
    expect(detectHarness({ hook_event_name: 'preToolUse', conversation_id: 'c', tool_name: 'Shell', tool_input: { command: 'ls' } })).toBe('cursor');
    expect(detectHarness({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command: 'ls' }, permission_mode: 'default' })).toBe('claude');
    expect(detectHarness({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Create', tool_input: { file_path: 'a' } })).toBe('droid');
    expect(detectHarness({ sessionId: 's', timestamp: 1, cwd: '/w', prompt: 'hi' }, 'userPromptSubmitted')).toBe('copilot');
  });

  it('an ask is a deny carrying the reason where the harness has no ask (Copilot, Crush, droid)', async () => {
    // A push to main asks under the default policy.
    const dir = project();
    for (const s of [SHAPES['copilot PascalCase'], SHAPES.crush, SHAPES.droid]) {
      const r = await runHook(['--event', s.event, '--project-dir', dir, '--harness', s.harness], s.payload(dir, 'git push origin main --force'));
      expect(reasonShown(s.harness, r), s.harness).toMatch(/needs approval|force/);
    }
    const qwen = await runHook(['--event', 'PreToolUse', '--project-dir', dir, '--harness', 'qwen'], SHAPES.qwen.payload(dir, 'git push origin main --force'));
    expect([qwen.code, qwen.stdout + qwen.stderr]).not.toEqual([0, '']);
  });

  it('tool names: droid Create/Edit, Copilot create/edit/view, Qwen write_file, OpenCode apply_patch (patchText) into .loom or hook settings are denied', async () => {
    const dir = project();
    const cases: [string, string, Record<string, unknown>][] = [
      ['droid', 'Create', { file_path: join(dir, '.loom', 'victim.txt'), content: '' }],
      ['droid', 'Edit', { file_path: join(dir, '.factory', 'settings.json'), old_str: 'a', new_str: 'b' }],
      ['copilot', 'create', { path: join(dir, '.github', 'hooks', 'loom.json'), file_text: '{}' }],
      ['copilot', 'str_replace', { path: join(dir, '.loom', 'policy.json'), old_str: 'a', new_str: 'b' }],
      ['qwen', 'write_file', { file_path: join(dir, '.qwen', 'settings.json'), content: '{}' }],
      ['opencode', 'apply_patch', { patchText: '*** Begin Patch\n*** Delete File: .loom/victim.txt\n*** End Patch' }],
      ['opencode', 'write', { filePath: join(dir, 'opencode.json'), content: '{}' }],
      ['kilo', 'write', { filePath: join(dir, '.kilo', 'plugins', 'loom.js'), content: '' }],
      ['crush', 'write', { file_path: join(dir, '.crush.json'), content: '{}' }],
    ];
    for (const [harness, tool, input] of cases) {
      const p = harness === 'crush' ? { event: 'PreToolUse', session_id: 's', cwd: dir, tool_name: tool, tool_input: input } : { hook_event_name: 'PreToolUse', session_id: 's', cwd: dir, tool_name: tool, tool_input: input };
      const r = await runHook(['--event', 'PreToolUse', '--project-dir', dir, '--harness', harness], p);
      expect(reasonShown(harness, r), `${harness} ${tool}`).toMatch(/modify-loom|modify-hook-settings/);
    }
    // A harmless patch still applies, and its record names the file the patch touches.
    const ok = await runHook(['--event', 'PreToolUse', '--project-dir', dir, '--harness', 'opencode'], { hook_event_name: 'PreToolUse', session_id: 's2', cwd: dir, tool_name: 'apply_patch', tool_input: { patchText: '*** Begin Patch\n*** Add File: src/a.ts\n+x\n*** End Patch' } });
    expect(ok.code, ok.stderr).toBe(0);
    const rec = (await history(dir)).find((r) => r.session_id === 's2' && r.event === 'PreToolUse');
    expect(JSON.stringify(rec)).toContain('src/a.ts');
  });

  it('Copilot camelCase post-tool and prompt payloads are recorded under sessionId', async () => {
    const dir = project();
    const post = await runHook(['--event', 'postToolUse', '--project-dir', dir, '--harness', 'copilot'], { sessionId: 'cam-1', timestamp: 1764536645123, cwd: dir, toolName: 'bash', toolArgs: { command: 'echo hi' }, toolResult: { resultType: 'success', textResultForLlm: 'hi' } });
    expect(post.code, post.stderr).toBe(0);
    const prompt = await runHook(['--event', 'userPromptSubmitted', '--project-dir', dir, '--harness', 'copilot'], { sessionId: 'cam-1', timestamp: 1764536645123, cwd: dir, prompt: 'tidy up' });
    expect(prompt.code, prompt.stderr).toBe(0);
    const recs = await history(dir);
    expect(recs.find((r) => r.event === 'PostToolUse')).toMatchObject({ harness: 'copilot', session_id: 'cam-1' });
    expect(recs.find((r) => r.event === 'UserPromptSubmit')).toMatchObject({ harness: 'copilot', session_id: 'cam-1' });
    expect(JSON.stringify(recs.find((r) => r.event === 'PostToolUse'))).toContain('echo hi');
  });

  it('a Copilot or Crush payload the runner cannot read is still a block with a reason', async () => {
    for (const [harness, event] of [['copilot', 'preToolUse'], ['crush', 'PreToolUse']]) {
      const r = await runHook(['--event', event, '--project-dir', project(), '--harness', harness], '{"toolName": "bash", "toolArgs": ');
      expect(reasonShown(harness, r), harness).toMatch(/loom/);
    }
  });
});

describe('the OpenCode / Kilo plugin, run as OpenCode runs it, against the real runner', () => {
  async function plugin(harness: 'opencode' | 'kilo', dir: string, { withLoom = true } = {}) {
    const home = tempDir('loom-home-');
    // The committed plugin finds loom under the project's node_modules, as after `npm install -D loom-governance`.
    if (withLoom) {
      mkdirSync(join(dir, 'node_modules'), { recursive: true });
      symlinkSync(ROOT, join(dir, 'node_modules', 'loom-governance'));
    }
    const r = await run(process.execPath, [CLI, 'install', '--harness', harness, '--project-dir', dir], null, { HOME: home });
    expect(r.code, r.stderr).toBe(0);
    const file = join(dir, harness === 'kilo' ? '.kilo' : '.opencode', 'plugins', 'loom.js');
    // OpenCode loads it as an ES module; a .mjs copy makes Node do the same.
    const copy = join(tempDir(), 'loom.mjs');
    cpSync(file, copy);
    const mod = await import(copy);
    return mod.LoomPlugin({ directory: dir });
  }

  for (const harness of ['opencode', 'kilo'] as const) {
    it(`${harness}: apply_patch deleting .loom/ throws loom's reason; a prompt with a live secret aborts; prompts, tool results and session events are recorded under sessionID`, async () => {
      const dir = project();
      const hooks = await plugin(harness, dir);
      const sessionID = `ses_${harness}_42`;
      await hooks['chat.message']({ sessionID, messageID: 'msg_1' }, { parts: [{ type: 'text', text: 'tidy the workspace' }] });
      const secret = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
      await expect(hooks['chat.message']({ sessionID, messageID: 'msg_2' }, { parts: [{ type: 'text', text: `use ${secret}` }] })).rejects.toThrow(/prompt-secret/);
      await expect(hooks['tool.execute.before']({ tool: 'apply_patch', sessionID, callID: 'c1' }, { args: { patchText: '*** Begin Patch\n*** Delete File: .loom/victim.txt\n*** End Patch' } })).rejects.toThrow(/modify-loom/);
      await expect(hooks['tool.execute.before']({ tool: 'bash', sessionID, callID: 'c2' }, { args: { command: 'rm -r .loom' } })).rejects.toThrow(/modify-loom/);
      const args = { command: 'echo ok > marker.txt' };
      await hooks['tool.execute.before']({ tool: 'bash', sessionID, callID: 'c3' }, { args });
      await hooks['tool.execute.after']({ tool: 'bash', sessionID, callID: 'c3', args }, { title: 'echo', output: 'ok', metadata: {} });
      await hooks.event({ event: { type: 'session.created', properties: { info: { id: sessionID } } } });
      await hooks.event({ event: { type: 'session.idle', properties: { sessionID } } });
      expect(existsSync(join(dir, '.loom', 'victim.txt'))).toBe(true);
      const recs = await history(dir);
      for (const r of recs) expect([r.harness, r.session_id]).toEqual([harness, sessionID]);
      const events = recs.map((r) => `${r.event}:${r.decision}`);
      expect(events).toContain('UserPromptSubmit:allow');
      expect(events).toContain('UserPromptSubmit:deny');
      expect(events.filter((e) => e === 'PreToolUse:deny').length).toBe(2);
      expect(events).toContain('PreToolUse:allow');
      expect(events.some((e) => e.startsWith('PostToolUse'))).toBe(true);
      expect(events.some((e) => e.startsWith('SessionStart'))).toBe(true);
      expect(events.some((e) => e.startsWith('Stop'))).toBe(true);
      // the secret itself is never stored
      expect(readFileSync(join(dir, '.loom', 'compliance', 'history.json'), 'utf8')).not.toContain(secret);
    });
  }

  it('loom not installed in the project is a block that says how to install it, not a pass', async () => {
    const hooks = await plugin('opencode', project(), { withLoom: false });
    await expect(hooks['tool.execute.before']({ tool: 'bash', sessionID: 's', callID: 'c' }, { args: { command: 'ls' } })).rejects.toThrow(/npm install/);
    await expect(hooks['chat.message']({ sessionID: 's', messageID: 'm' }, { parts: [{ type: 'text', text: 'hi' }] })).rejects.toThrow(/npm install/);
  });

  it('node missing is a block, not a pass', async () => {
    const dir = project();
    const hooks = await plugin('opencode', dir);
    const saved = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      await expect(hooks['tool.execute.before']({ tool: 'bash', sessionID: 's', callID: 'c' }, { args: { command: 'ls' } })).rejects.toThrow(/loom/);
    } finally {
      process.env.PATH = saved;
    }
  });
});
