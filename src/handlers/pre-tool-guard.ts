// PreToolUse: the shell guard for every harness's shell tool, the
// file-write guard for writes, edits and patches, secret reads through read
// tools; records every tool call with what the guard saw.
import { join } from 'node:path';
import { patchPaths, patchTextOf, targetPaths } from '../contract/tools';
import type { Decision, HandlerContext, Risk, Verdict } from '../contract/types';
import { handlerEnv, isVerdict, type GuardEnv } from '../guards/context';
import { checkFileWrites, strongest } from '../guards/file-write';
import { Analyzer, analyzeCommand, type Hit } from '../guards/shell/analyze';
import { readsPath } from '../guards/shell/path-rules';
import { toolAsks } from '../guards/tool-input';
import { clipRedacted } from '../ledger/redact-gate';

const CRITICAL = new Set(['rm-recursive-root', 'rm-recursive-home', 'disk-destroy', 'fork-bomb', 'modify-loom', 'modify-hook-settings']);
const MAX_SUMMARY = 4000;

function riskOf(decision: Decision, hits: Hit[]): Risk {
  if (hits.some((h) => h.action === 'deny' && CRITICAL.has(h.rule))) return 'critical';
  if (decision === 'deny') return 'high';
  if (decision === 'ask') return 'medium';
  return 'low';
}

function commandOf(input: Record<string, unknown> | undefined): unknown {
  if (!input) return undefined;
  if ('command' in input) return input.command;
  if ('cmd' in input) return input.cmd;
  return undefined;
}

const CONTENT_KEYS = ['content', 'contents', 'file_text', 'text', 'new_string', 'new_str', 'newText', 'new_source', 'code'];

/**
 * A tool the table does not know (Factory's `Execute`, an MCP server's shell)
 * is judged by what its input carries: a command string is a shell command,
 * a patch text is a patch, a path with content is a write.
 */
export function effectiveKind(kind: string | undefined, input: Record<string, unknown> | undefined): string | undefined {
  if (kind !== undefined && kind !== 'other' && kind !== 'mcp') return kind;
  if (!input) return kind;
  if (typeof input.command === 'string' || typeof input.cmd === 'string') return 'shell';
  if (typeof input.patchText === 'string' || typeof input.patch === 'string') return 'patch';
  if (targetPaths(input).length && CONTENT_KEYS.some((k) => typeof input[k] === 'string')) return 'write';
  return kind;
}

function notJudgeable(env: { policy: { rules: Record<string, Decision | undefined> } }, detail: string, got: string): Hit {
  return { rule: 'path-not-a-string', action: env.policy.rules['path-not-a-string'] ?? 'deny', segment: got, detail: `${detail} (got ${got})` };
}

/** What a tool call does, judged: the guard's hits, a summary for the record, the paths it touches, its kind. */
export function judgeToolCall(toolName: unknown, toolKind: string | undefined, input: Record<string, unknown> | undefined, env: GuardEnv): { hits: Hit[]; summary: string; paths: string[]; kind: string | undefined } {
  const kind = effectiveKind(toolKind, input);
  let hits: Hit[] = [];
  let summary = '';
  let paths: string[] = [];
  if (kind === 'shell') {
    const command = commandOf(input);
    // A command given as an argv (`["bash", "-lc", "…"]`: Codex's shell tool, MCP shells): the line it is.
    // A program and its arguments apart (`{"command": "rm", "args": [...]}`) are one line too.
    const apart = typeof command === 'string' && input !== undefined && ['args', 'arguments', 'argv'].some((k) => Array.isArray(input[k]));
    const asArgv = typeof command !== 'string' || apart ? toolAsks(toolName, input).shell : [];
    if (asArgv.length) {
      summary = asArgv.join('\n');
      for (const c of asArgv) hits.push(...analyzeCommand(c, env).hits);
    } else if (typeof command !== 'string' || command.trim() === '') {
      hits = [{ rule: 'command-not-a-string', action: env.policy.rules['command-not-a-string'] ?? 'deny', segment: String(typeof command), detail: `the shell tool input has no command string (got ${command === undefined ? 'nothing' : typeof command})` }];
    } else {
      summary = command;
      hits = analyzeCommand(command, env).hits;
    }
  } else if (kind === 'patch') {
    const patch = patchTextOf(input);
    paths = patchPaths(patch);
    summary = `apply_patch: ${paths.join(', ')}`;
    hits = checkFileWrites(paths, env);
    if (typeof patch !== 'string' || patch.trim() === '') hits.push(notJudgeable(env, 'the patch tool input has no patch text', typeof patch));
  } else if (kind === 'write' || kind === 'edit') {
    paths = targetPaths(input);
    summary = `${String(toolName)}: ${paths.join(', ')}`;
    hits = checkFileWrites(paths, env);
    // A write whose path is a number, a list, null or missing lands where loom cannot say: not judgeable is a block.
    if (paths.length === 0) hits.push(notJudgeable(env, 'the write tool input has no file path string', input ? typeof (input.file_path ?? input.path ?? input.filePath) : 'nothing'));
  } else if (kind === 'read') {
    paths = targetPaths(input);
    summary = `${String(toolName)}: ${paths.join(', ')}`;
    const a = new Analyzer({ ...env });
    for (const f of paths) readsPath(a, f, env.cwd, f);
    hits = a.hits;
  } else {
    // A tool loom does not know: judged by what its input asks for, whatever the keys are called.
    const asks = toolAsks(toolName, input);
    for (const c of asks.shell) hits.push(...analyzeCommand(c, env).hits);
    paths = [...new Set([...asks.writes, ...asks.patches.flatMap((t) => patchPaths(t))])];
    if (paths.length) hits.push(...checkFileWrites(paths, env));
    summary = [String(toolName ?? 'unknown tool'), ...asks.shell, ...paths].join('\n');
  }
  return { hits, summary, paths, kind };
}

export function guard(ctx: HandlerContext): Verdict {
  const p = ctx.payload;
  const input = p.tool_input && typeof p.tool_input === 'object' && !Array.isArray(p.tool_input) ? (p.tool_input as Record<string, unknown>) : undefined;
  const env = handlerEnv(ctx, join(__dirname, '..'));
  if (isVerdict(env)) return env;
  const { hits, summary, paths, kind } = judgeToolCall(p.tool_name, p.tool_kind as string | undefined, input, env);
  const decision = strongest(hits);
  const top = hits.filter((h) => h.action === decision && decision !== 'allow');
  const reason = top.map((h) => `${h.rule}: ${h.detail} (\`${h.segment}\`)`).join('; ');
  const risk = riskOf(decision, hits);
  const verdict: Verdict = {
    status: 'ok',
    risk,
    audit: [
      {
        kind: 'tool_call',
        risk,
        data: {
          tool: p.tool_name ?? null,
          tool_kind: kind ?? 'other',
          tool_use_id: p.tool_use_id ?? null,
          input_summary: clipRedacted(summary, MAX_SUMMARY),
          paths,
          rules: hits.map((h) => ({ rule: h.rule, action: h.action, segment: h.segment })),
          guard_decision: decision,
        },
      },
    ],
  };
  if (decision !== 'allow') {
    verdict.decision = decision;
    verdict.reason = reason;
    verdict.message = reason;
  }
  return verdict;
}

export const run = guard;
