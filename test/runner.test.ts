import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRegistry, parseRegistry, RegistryError } from '../src/registry/load';
import { wrapperFiles } from '../src/registry/wrappers';
import { platformSkipReason } from '../src/runner/platform';
import { BEHAVE, preToolUse, ROOT, run, runHook, tempDir, writeRegistry } from './helpers';

type Mode = string;

function hook(id: string, mode: Mode, extra: Record<string, unknown> = {}) {
  const { policy, ...rest } = extra as { policy?: Record<string, unknown> };
  return { id, entry: BEHAVE, timeoutMs: 1000, ...rest, policy: { mode, ...(policy ?? {}) } };
}

async function runOne(mode: Mode, extra: Record<string, unknown> = {}, event = 'PreToolUse', payload: unknown = preToolUse()) {
  const project = tempDir();
  const cfg = writeRegistry({ [event]: [hook('h', mode, extra)] });
  return runHook(['--event', event, '--config', cfg, '--project-dir', project], payload);
}

describe('registry', () => {
  it('accepts the event-grouped format and flattens hooks listed under several groups', () => {
    const defs = parseRegistry(JSON.stringify({ PreToolUse: [{ id: 'a', entry: 'x.cjs' }], PostToolUse: [{ id: 'a', entry: 'x.cjs' }] }), 'f');
    expect(defs).toHaveLength(1);
    expect(defs[0].events).toEqual(['PreToolUse', 'PostToolUse']);
    expect(defs[0]).toMatchObject({ timeoutMs: 10000, fallback: 'warn', retryCount: 2 });
  });

  it('accepts the legacy flat array with event or events', () => {
    const defs = parseRegistry(JSON.stringify([{ id: 'a', entry: 'x.cjs', event: 'Stop' }, { id: 'b', entry: 'y.cjs', events: ['PreToolUse', 'PostToolUse'], blocking: true }]), 'f');
    expect(defs.map((d) => [d.id, d.events, d.fallback])).toEqual([
      ['a', ['Stop'], 'warn'],
      ['b', ['PreToolUse', 'PostToolUse'], 'error'],
    ]);
  });

  it('reports each schema error with its JSON path', () => {
    try {
      parseRegistry(JSON.stringify({ PreToolUse: [{ id: 'Bad_Id', entry: 'x.cjs', timeoutMs: -1, fallback: 'explode' }, { id: 'ok' }] }), 'hooks.json');
      throw new Error('expected a RegistryError');
    } catch (e) {
      expect(e).toBeInstanceOf(RegistryError);
      const problems = (e as RegistryError).problems.join('\n');
      expect(problems).toContain('$.PreToolUse[0].id');
      expect(problems).toContain('$.PreToolUse[0].timeoutMs');
      expect(problems).toContain('$.PreToolUse[0].fallback');
      expect(problems).toContain('$.PreToolUse[1]: missing required property "entry"');
    }
  });

  it('accepts seed 000\'s {"hooks": {...}} wrapper (and a wrapped flat array), naming errors from the root', () => {
    const defs = parseRegistry(JSON.stringify({ $schema: './hooks.schema.json', hooks: { PreToolUse: [{ id: 'a', entry: 'x.cjs', blocking: true }], Stop: [{ id: 'b', entry: 'y.cjs' }] } }), 'f');
    expect(defs.map((d) => [d.id, d.events, d.fallback])).toEqual([
      ['a', ['PreToolUse'], 'error'],
      ['b', ['Stop'], 'warn'],
    ]);
    expect(parseRegistry(JSON.stringify({ hooks: [{ id: 'a', entry: 'x.cjs', event: 'Stop' }] }), 'f').map((d) => d.events)).toEqual([['Stop']]);
    expect(() => parseRegistry(JSON.stringify({ hooks: { PreToolUse: [{ id: 'a' }] } }), 'h.json')).toThrow(/h\.json: \$\.hooks\.PreToolUse\[0\]: missing required property "entry"/);
    expect(() => parseRegistry(JSON.stringify({ hooks: { PreToolUse: [] }, Stop: [] }), 'h.json')).toThrow(/\$\.Stop: unexpected beside "hooks"/);
  });

  it('rejects a flat hook without an event', () => {
    expect(() => parseRegistry(JSON.stringify([{ id: 'a', entry: 'x.cjs' }]), 'f')).toThrow(/\$\[0\]: a hook in the flat format needs/);
  });

  it('the shipped registry is valid and its wrappers are generated from it', () => {
    const defs = loadRegistry(join(ROOT, 'config/hooks.json'));
    expect(defs.length).toBeGreaterThan(0);
    const files = wrapperFiles(defs);
    for (const d of defs) {
      const sh = join(ROOT, 'hooks', d.id);
      expect(readFileSync(sh, 'utf8'), `hooks/${d.id} is stale: run npm run gen:wrappers`).toBe(files.get(d.id));
      expect(statSync(sh).mode & 0o111, `hooks/${d.id} must be executable`).not.toBe(0);
      expect(readFileSync(sh + '.cmd', 'utf8')).toBe(files.get(`${d.id}.cmd`));
    }
    // A hook that answers an event that can block reads Node's exit 1 as a block; one that cannot lets it pass.
    expect(files.get('pre-tool-guard')).toContain('[ $loom_s -eq 0 ] || [ $loom_s -eq 2 ]');
    expect(files.get('tool-audit')).toContain('[ $loom_s -le 2 ]');
  });
});

describe('runner command line', () => {
  it('an invalid registry on an event that cannot block exits 1 with one line naming each error path', async () => {
    const cfg = writeRegistry({ PreToolUse: [{ id: 'x', entry: BEHAVE, retryCount: 9 }, { id: 'y', entry: 3 }] });
    const r = await runHook(['--event', 'PostToolUse', '--config', cfg], { hook_event_name: 'PostToolUse' });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('$.PreToolUse[0].retryCount');
    expect(lines[0]).toContain('$.PreToolUse[1].entry');
  });

  it('an invalid registry on PreToolUse is a block (exit 2, one line), not exit 1', async () => {
    const cfg = writeRegistry({ PreToolUse: [{ id: 'x', entry: BEHAVE, retryCount: 9 }] });
    const r = await runHook(['--event', 'PreToolUse', '--config', cfg, '--project-dir', tempDir()], preToolUse('rm -rf /'));
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('$.PreToolUse[0].retryCount');
  });

  it('registry that is not JSON names the file and the parse error', async () => {
    const cfg = writeRegistry('{ nope');
    const r = await runHook(['x', '--config', cfg], {});
    // a payload that names no event may be one that can block: the configuration error blocks
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(cfg);
    expect(r.stderr).toContain('invalid JSON');
  });

  it('an unknown hook id lists the known ids', async () => {
    const cfg = writeRegistry({ PreToolUse: [hook('alpha', 'ok')], Stop: [hook('beta', 'ok')] });
    const r = await runHook(['gamma', '--config', cfg], {});
    expect(r.code).toBe(2);
    // on an event that cannot block, the error is reported and the harness goes on (exit 1)
    expect((await runHook(['gamma', '--config', cfg], { hook_event_name: 'SessionEnd' })).code).toBe(1);
    expect(r.stderr).toMatch(/unknown hook id "gamma"; known ids: alpha, beta/);
  });

  it('--event with no hook for it allows silently', async () => {
    const cfg = writeRegistry({ PreToolUse: [hook('alpha', 'deny')] });
    const r = await runHook(['--event', 'SessionEnd', '--config', cfg], {});
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('an unknown event spelling runs its hooks and warns once', async () => {
    const cfg = writeRegistry({ BrandNewEvent: [hook('a', 'ok'), hook('b', 'ok')] });
    const r = await runHook(['--event', 'BrandNewEvent', '--config', cfg, '--project-dir', tempDir()], {});
    expect(r.code).toBe(0);
    expect(r.stderr.match(/unknown event "BrandNewEvent"/g)).toHaveLength(1);
  });

  it('a hook id runs through its POSIX wrapper with stdin passed through', async () => {
    const dir = tempDir();
    const r = await run(join(ROOT, 'hooks', 'pre-tool-guard'), [], JSON.stringify(preToolUse('ls')), { LOOM_PROJECT_DIR: dir }, dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
  });

  it('a wrapper fails closed (exit 2) when node is not on PATH', async () => {
    const r = await run('/bin/sh', [join(ROOT, 'hooks', 'pre-tool-guard')], '{}', { PATH: '/nonexistent' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('node is not on PATH');
  });
});

describe('platforms', () => {
  it('maps process.platform per seed 000 and skips unknown platforms', () => {
    const h = { id: 'h', events: [], entry: 'x', timeoutMs: 1, blocking: false, fallback: 'warn' as const, retryCount: 2, idempotent: true, policy: {} };
    expect(platformSkipReason({ ...h, platforms: ['macos'] }, 'darwin')).toBeUndefined();
    expect(platformSkipReason({ ...h, platforms: ['windows'] }, 'win32')).toBeUndefined();
    expect(platformSkipReason({ ...h, platforms: ['linux'] }, 'darwin')).toMatch(/not declared for macos/);
    expect(platformSkipReason({ ...h, platforms: [] }, 'aix')).toMatch(/unknown platform "aix"/);
  });

  it('a hook for another platform is skipped with a warning and does not run', async () => {
    const r = await runOne('deny', { platforms: ['windows'] });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/hook "h" skipped: not declared for linux/);
  });
});

// Every failure kind crossed with every fallback.
const failureModes = ['throw', 'async-hang', 'sync-loop', 'garbage-string', 'null', 'unknown-status', 'exit', 'async-exit', 'async-throw'] as const;
const fallbacks = ['skip', 'warn', 'error', 'retry'] as const;

describe('fallbacks', () => {
  for (const mode of failureModes) {
    for (const fallback of fallbacks) {
      it(`${mode} with fallback ${fallback}`, async () => {
        const counter = join(tempDir(), 'attempts');
        const r = await runOne(mode, { fallback, retryCount: 1, timeoutMs: 300, policy: { counterFile: counter } });
        expect(r.stdout).toBe('');
        const attempts = readFileSync(counter, 'utf8').trim().split('\n').length;
        expect(attempts).toBe(fallback === 'retry' ? 2 : 1);
        if (fallback === 'skip') {
          expect(r.code).toBe(0);
          expect(r.stderr).toBe('');
        } else if (fallback === 'warn') {
          expect(r.code).toBe(0);
          expect(r.stderr.trim().split('\n')).toHaveLength(1);
          expect(r.stderr).toContain('hook "h"');
        } else {
          // PreToolUse can be blocked: the failure is Claude Code's block.
          expect(r.code).toBe(2);
          expect(r.stderr).toContain('hook "h" failed');
        }
      });
    }
  }

  it('an error failure on an event that cannot block exits 1', async () => {
    const r = await runOne('throw', { fallback: 'error' }, 'SessionEnd', { hook_event_name: 'SessionEnd' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('hook "h" failed: threw: boom from handler');
  });

  for (const mode of ['blocked', 'failed'] as const) {
    for (const fallback of fallbacks) {
      it(`a ${mode} verdict is a failure even with fallback ${fallback}, and is not retried`, async () => {
        const counter = join(tempDir(), 'attempts');
        const r = await runOne(mode, { fallback, policy: { counterFile: counter } });
        expect(r.code).toBe(2);
        expect(r.stderr).toContain(`hook "h" ${mode}`);
        expect(readFileSync(counter, 'utf8').trim().split('\n')).toHaveLength(1);
      });
    }
  }

  it('retryCount sets the number of extra attempts', async () => {
    const counter = join(tempDir(), 'attempts');
    const r = await runOne('throw', { fallback: 'retry', retryCount: 3, policy: { counterFile: counter } });
    expect(r.code).toBe(2);
    expect(readFileSync(counter, 'utf8').trim().split('\n')).toHaveLength(4);
  });

  it('blocking without fallback means error; non-blocking means warn', async () => {
    const blocking = await runOne('throw', { blocking: true });
    expect(blocking.code).toBe(2);
    const soft = await runOne('throw', { blocking: false });
    expect(soft.code).toBe(0);
    expect(soft.stderr).toContain('boom from handler');
  });

  it('timeoutMs 0 means no timeout: a slow async handler still answers', async () => {
    const r = await runOne('async-ok', { timeoutMs: 0 });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toBe('async done');
  });
});

describe('isolation', () => {
  it('handler output goes to stderr; stdout carries only the answer', async () => {
    const cfg = writeRegistry({ PreToolUse: [hook('noisy', 'stdout'), hook('ctx', 'context', { policy: { context: 'hello' } })] });
    const r = await runHook(['--event', 'PreToolUse', '--config', cfg, '--project-dir', tempDir()], preToolUse());
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'hello' } });
    expect(r.stderr).toContain('polluting stdout via console.log');
    expect(r.stderr).toContain('polluting stdout via write');
    expect(r.stderr).toContain('polluting stdout via fd 1');
  });

  it('process.exit in a handler cannot end the run early; the next handler still runs', async () => {
    const cfg = writeRegistry({ PreToolUse: [hook('quitter', 'exit'), hook('denier', 'deny', { policy: { reason: 'second hook ran' } })] });
    const r = await runHook(['--event', 'PreToolUse', '--config', cfg, '--project-dir', tempDir()], preToolUse());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('process.exit(0)');
    expect(r.stderr).toContain('second hook ran');
  });

  it('one hook cannot change the payload the next one sees', async () => {
    const cfg = writeRegistry({ PreToolUse: [hook('mutator', 'mutate'), hook('reader', 'echo-input')] });
    const r = await runHook(['--event', 'PreToolUse', '--config', cfg, '--project-dir', tempDir()], preToolUse('ls -la'));
    expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toBe('saw {"command":"ls -la"}');
  });

  it('a throwing handler does not stop the others of the same event', async () => {
    const cfg = writeRegistry({ PreToolUse: [hook('a', 'throw'), hook('b', 'context', { policy: { context: 'b ran' } })] });
    const r = await runHook(['--event', 'PreToolUse', '--config', cfg, '--project-dir', tempDir()], preToolUse());
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toBe('b ran');
  });

  it('a handler entry outside the pack and the registry folder is refused', async () => {
    const cfg = writeRegistry({ PreToolUse: [{ id: 'evil', entry: '../../../../../../etc/passwd', fallback: 'error' }] });
    const r = await runHook(['--event', 'PreToolUse', '--config', cfg, '--project-dir', tempDir()], preToolUse());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('resolves outside the pack');
  });
});

describe('fan-out and answer', () => {
  it('aggregates deny > ask > allow in config order and joins reasons', async () => {
    const cfg = writeRegistry({ PreToolUse: [hook('a', 'allow'), hook('b', 'ask'), hook('c', 'deny', { policy: { reason: 'no way' } })] });
    const r = await runHook(['--event', 'PreToolUse', '--config', cfg, '--project-dir', tempDir()], preToolUse());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('please confirm; no way');
  });

  it('ask wins over allow as a Claude Code permissionDecision', async () => {
    const cfg = writeRegistry({ PreToolUse: [hook('a', 'allow'), hook('b', 'ask')] });
    const r = await runHook(['--event', 'PreToolUse', '--config', cfg, '--project-dir', tempDir()], preToolUse());
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'please confirm' },
    });
  });

  it('input patches apply in order and each handler sees the previous rewrite', async () => {
    const cfg = writeRegistry({
      PreToolUse: [
        hook('p1', 'patch', { policy: { patch: { command: 'git status', timeout: 5 } } }),
        hook('seer', 'echo-input'),
        hook('p2', 'patch', { policy: { patch: { timeout: 9 } } }),
      ],
    });
    const r = await runHook(['--event', 'PreToolUse', '--config', cfg, '--project-dir', tempDir()], preToolUse('git push'));
    const out = JSON.parse(r.stdout).hookSpecificOutput;
    expect(out.updatedInput).toEqual({ command: 'git status', timeout: 9 });
    expect(out.permissionDecision).toBe('allow');
    expect(out.additionalContext).toBe('saw {"command":"git status","timeout":5}');
  });

  it('a deny on a blockable prompt event is exit 2 with the reason', async () => {
    const r = await runOne('deny', {}, 'UserPromptSubmit', { hook_event_name: 'UserPromptSubmit', prompt: 'hi' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('denied by test');
  });

  it('handlers receive the canonical event', async () => {
    const r = await runOne('event', {}, 'SessionStart', { hook_event_name: 'SessionStart' });
    expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toBe('event=SessionStart');
  });
});

describe('stdin', () => {
  it('empty stdin counts as {} on an event with nothing to judge', async () => {
    const r = await runOne('echo-input', {}, 'UserPromptSubmit', '');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toBe('saw undefined');
  });

  it('empty or white-space stdin on PreToolUse is a block ("empty payload")', async () => {
    for (const body of ['', '  \n']) {
      const r = await runOne('ok', {}, 'PreToolUse', body);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('empty payload');
    }
  });

  it('reads a payload delivered in many chunks to the end', async () => {
    const big = 'x'.repeat(3 * 1024 * 1024);
    const r = await runOne('echo-length', {}, 'PreToolUse', preToolUse(big));
    expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toBe(`length=${big.length}`);
  });

  it('invalid JSON fails the invocation with the parse error (a block on PreToolUse)', async () => {
    const r = await runOne('ok', {}, 'PreToolUse', '{"tool_name": ');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/stdin is not valid JSON: .+/);
  });

  it('a JSON value that is not an object is refused', async () => {
    const r = await runOne('ok', {}, 'SessionEnd', '[1,2]');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('stdin must be one JSON object, got an array');
  });

  it('over 16 MiB is refused without being read whole', async () => {
    const huge = Buffer.alloc(17 * 1024 * 1024, 0x20);
    const r = await runOne('ok', {}, 'PreToolUse', huge);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('larger than 16777216 bytes (16 MiB)');
  });
});
