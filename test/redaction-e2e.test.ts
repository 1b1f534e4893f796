// End to end: hook events carrying secrets of every family go through the
// real runner process with the shipped registry, and no file under .loom/
// (ledger database and its WAL, history.json, segments, index, checkpoints,
// anything else written there) holds any of them afterwards.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpus, type SecretCase } from './redaction/corpus';
import { CLI, run, runHook, tempDir } from './helpers';

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p));
    else out.push(p);
  }
  return out;
}

/** Two cases of every family, packed into texts of about `size` characters. */
function chunks(cases: SecretCase[], size: number): SecretCase[][] {
  const byFamily = new Map<string, SecretCase[]>();
  for (const c of cases) byFamily.set(c.family, [...(byFamily.get(c.family) ?? []), c]);
  const chosen = [...byFamily.values()].flatMap((cs) => [cs[0], cs[cs.length - 1]]);
  const out: SecretCase[][] = [[]];
  let len = 0;
  for (const c of chosen) {
    if (len + c.text.length > size && out[out.length - 1].length) {
      out.push([]);
      len = 0;
    }
    out[out.length - 1].push(c);
    len += c.text.length + 1;
  }
  return out;
}

describe('no secret reaches any file under .loom/ (real runner, shipped registry)', () => {
  it('PreToolUse, PostToolUse and UserPromptSubmit with secrets of every family in tool input, tool output and prompt', async () => {
    const { secrets } = corpus(424242);
    const project = tempDir('loom-redact-e2e-');
    const groups = chunks(secrets, 900);
    // Never the real HOME: the external checkpoint copy goes to a temp folder, and is grepped too.
    const home = tempDir('loom-redact-e2e-home-');
    const outside = join(home, 'checkpoints');
    const env = { LOOM_PROJECT_DIR: project, LOOM_CHECKPOINT_EVERY: '5', HOME: home, XDG_STATE_HOME: join(home, 'state'), XDG_CONFIG_HOME: join(home, 'config'), LOOM_CHECKPOINT_DIR: outside };
    let n = 0;
    for (const g of groups) {
      const text = g.map((c) => c.text).join('\n');
      const session = `sess-${n++}`;
      const pre = await runHook(['--event', 'PreToolUse'], { session_id: session, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: text, description: text }, cwd: project }, env);
      expect(pre.code === 0 || pre.code === 2, pre.stderr).toBe(true);
      const post = await runHook(['--event', 'PostToolUse'], { session_id: session, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: text }, tool_response: { stdout: text, stderr: text, exit_code: 1 }, cwd: project }, env);
      expect(post.code === 0 || post.code === 2, post.stderr).toBe(true);
      const prompt = await runHook(['--event', 'UserPromptSubmit'], { session_id: session, hook_event_name: 'UserPromptSubmit', prompt: `please use these:\n${text}`, cwd: project }, env);
      expect(prompt.code === 0 || prompt.code === 2, prompt.stderr).toBe(true);
      // What the runner prints to the harness is not a place for the secret either.
      for (const c of g) for (const r of [pre, post, prompt]) expect((r.stdout + r.stderr).includes(c.secret), `${c.family} printed`).toBe(false);
    }
    // Hooks append to the journal; folding copies it into the database and history.json. Grep after both.
    const journalOnly = filesUnder(join(project, '.loom'));
    expect(journalOnly.some((f) => f.endsWith('journal.log'))).toBe(true);
    const before = journalOnly.map((f) => [`${f} (before folding)`, readFileSync(f).toString('latin1')] as const);
    const fold = await run(process.execPath, [CLI, 'fold', '--project-dir', project], null, env);
    expect(fold.code, fold.stderr).toBe(0);
    const files = [...filesUnder(join(project, '.loom')), ...filesUnder(outside)];
    expect(files.some((f) => f.startsWith(outside)), 'the external checkpoint copy').toBe(true);
    expect(files.some((f) => f.endsWith('ledger.db'))).toBe(true);
    expect(files.some((f) => f.endsWith('history.json'))).toBe(true);
    const history = readFileSync(join(project, '.loom', 'compliance', 'history.json'), 'utf8');
    expect(JSON.parse(history).length).toBeGreaterThanOrEqual(groups.length * 3);
    expect(history).toContain('[REDACTED');
    const planted = groups.flat();
    expect(new Set(planted.map((c) => c.family)).size).toBeGreaterThanOrEqual(25);
    const leaks: string[] = [];
    for (const [f, bytes] of [...before, ...files.map((f) => [f, readFileSync(f).toString('latin1')] as const)]) {
      for (const c of planted) {
        // As stored raw (SQLite, UTF-8) and as JSON writes it (history.json escapes quotes and backslashes).
        const forms = [c.secret, JSON.stringify(c.secret).slice(1, -1)].map((s) => Buffer.from(s, 'utf8').toString('latin1'));
        if (forms.some((s) => bytes.includes(s))) leaks.push(`${c.family} in ${f.slice(project.length)}`);
      }
    }
    expect(leaks).toEqual([]);
  }, 240_000);
});
