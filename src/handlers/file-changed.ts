// FileChanged (Claude Code), afterFileEdit (Cursor), file.edited (OpenCode):
// path, kind of change, risk class and what to bring in sync, returned as
// context where the harness takes it.
import { isAbsolute, join, relative } from 'node:path';
import type { HandlerContext, Risk, Verdict } from '../contract/types';

interface Class {
  cls: string;
  risk: Risk;
  suggest?: string;
}

export function classifyFile(rel: string): Class {
  const base = rel.split('/').pop() ?? rel;
  if (/^\.env(?:\.|$)/.test(base) && !/\.example$|\.sample$|\.template$/.test(base)) return { cls: 'secrets-file', risk: 'high', suggest: 'keep it out of git; rotate any secret it exposed' };
  if (/\.(?:pem|key|p12|pfx)$/.test(base) || /^id_(?:rsa|ed25519|ecdsa)/.test(base)) return { cls: 'secrets-file', risk: 'high', suggest: 'keep it out of git' };
  if (rel.startsWith('.loom/')) return { cls: 'loom-config', risk: 'high', suggest: 'loom state changed outside loom; run loom verify' };
  if (/^\.claude\/settings(?:\.local)?\.json$|^\.codex\/(?:hooks\.json|config\.toml)$|^\.gemini\/settings\.json$|^\.cursor\/hooks\.json$|^opencode\.json$/.test(rel)) return { cls: 'hook-config', risk: 'high', suggest: 'hook settings changed: run loom validate' };
  if (/^\.github\/workflows\/|^\.gitlab-ci\.yml$|^\.circleci\/|^Jenkinsfile$|^azure-pipelines\.yml$/.test(rel)) return { cls: 'ci-config', risk: 'medium', suggest: 'CI changed: have it reviewed' };
  if (/^(?:package-lock\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?|Cargo\.lock|poetry\.lock|uv\.lock|Gemfile\.lock|go\.sum|composer\.lock)$/.test(base)) return { cls: 'lockfile', risk: 'low', suggest: 'lockfile changed: reinstall dependencies (npm ci / the equivalent)' };
  if (/(?:^|\/)migrations?\//.test(rel) || /\.sql$/.test(base)) return { cls: 'migration', risk: 'medium', suggest: 'migration changed: run it against a scratch database first' };
  if (/(?:schema\.(?:prisma|graphql|json)|\.proto|openapi\.(?:ya?ml|json))$/.test(base)) return { cls: 'schema', risk: 'low', suggest: 'schema changed: regenerate its clients and types' };
  if (rel.startsWith('specs/')) return { cls: 'spec', risk: 'low', suggest: 'spec changed: refresh the handoff and re-read it before coding' };
  return { cls: 'source', risk: 'none' };
}

export function run(ctx: HandlerContext): Verdict {
  const p = ctx.payload;
  const project = String(p.loom_project_dir);
  const raw = String(p.file_path ?? (p.tool_input as { file_path?: string } | undefined)?.file_path ?? p.path ?? '');
  const abs = raw && !isAbsolute(raw) ? join(project, raw) : raw;
  const rel = abs ? relative(project, abs) : '';
  const outside = !rel || rel.startsWith('..') || isAbsolute(rel);
  const c = outside ? { cls: 'outside-project', risk: 'medium' as Risk, suggest: 'a file outside the project changed' } : classifyFile(rel.split('\\').join('/'));
  const change = String(p.event ?? p.change_type ?? (Array.isArray(p.edits) ? 'edit' : 'change'));
  const data = { path: abs || null, relative_path: outside ? null : rel, change, risk_class: c.cls, sync_suggestions: c.suggest ? [c.suggest] : [] };
  return { status: 'ok', risk: c.risk, additionalContext: c.suggest ? `loom: ${rel || abs}: ${c.suggest}.` : undefined, audit: [{ kind: 'file_change', risk: c.risk, data }] };
}
