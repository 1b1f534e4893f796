// PostToolUse / PostToolUseFailure: what ran and how it ended. Tool output
// is never stored whole: a bounded excerpt and its size.
import { patchPaths, patchTextOf, targetPaths } from '../contract/tools';
import type { HandlerContext, Risk, Verdict } from '../contract/types';
import { clipRedacted } from '../ledger/redact-gate';

const MAX_SUMMARY = 2000;
const MAX_EXCERPT = 1024;

function text(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return '';
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}

// Redacted before the cut: a secret that straddles it must not leave its head behind.
const clip = clipRedacted;

export function run(ctx: HandlerContext): Verdict {
  const p = ctx.payload;
  const input = (p.tool_input && typeof p.tool_input === 'object' ? p.tool_input : {}) as Record<string, unknown>;
  const resp = p.tool_response;
  const r = resp && typeof resp === 'object' && !Array.isArray(resp) ? (resp as Record<string, unknown>) : {};
  const failedEvent = ctx.event === 'PostToolUseFailure';
  const exitCode = typeof r.exit_code === 'number' ? r.exit_code : typeof r.exitCode === 'number' ? r.exitCode : typeof r.returncode === 'number' ? r.returncode : undefined;
  const errorText = text(p.error ?? r.error ?? (r.is_error || r.isError ? r.content ?? r.stderr : undefined) ?? (exitCode ? r.stderr : ''));
  const failed = failedEvent || Boolean(r.is_error || r.isError || r.interrupted || p.is_interrupt) || (exitCode !== undefined && exitCode !== 0) || Boolean(errorText);
  const command = typeof input.command === 'string' ? input.command : typeof input.cmd === 'string' ? input.cmd : '';
  const artifacts = [...targetPaths(input), ...(p.tool_kind === 'patch' ? patchPaths(patchTextOf(input)) : [])];
  const output = text(resp);
  const sensitive = artifacts.some((a) => /(?:^|\/)\.env(?:\.|$)|\.pem$|\.key$|id_rsa/.test(a));
  const risk: Risk = sensitive ? 'high' : failed ? 'medium' : 'low';
  return {
    status: 'ok',
    risk,
    audit: [
      {
        kind: 'tool_result',
        risk,
        decision: failed ? 'failed' : 'succeeded',
        data: {
          tool: p.tool_name ?? null,
          tool_kind: p.tool_kind ?? 'other',
          tool_use_id: p.tool_use_id ?? null,
          input_summary: clip(command || artifacts.join(', ') || text(input), MAX_SUMMARY),
          exit_code: exitCode ?? null,
          success: !failed,
          duration_ms: typeof p.duration_ms === 'number' ? p.duration_ms : null,
          artifacts,
          error_summary: errorText ? clip(errorText.trim(), 500) : null,
          output_bytes: Buffer.byteLength(output),
          output_excerpt: clip(output, MAX_EXCERPT),
          output_truncated: output.length > MAX_EXCERPT,
        },
      },
    ],
  };
}
