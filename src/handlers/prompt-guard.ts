// UserPromptSubmit / PreUserPromptSubmit: record the request (redacted by
// the ledger), classify its risk, suggest a process, and stop a prompt that
// carries a live secret (or rewrite it where the harness allows).
import { join } from 'node:path';
import type { HandlerContext, Risk, Verdict } from '../contract/types';
import { clipRedacted, redact } from '../ledger/redact-gate';
import { loadPolicy, PolicyError } from '../policy/policy';

const DESTRUCTIVE = /\b(?:delete|drop (?:the )?(?:database|table)|wipe|rm -rf|force[- ]push|truncate|destroy|purge)\b|删除|清空/i;
const EXPORT = /\b(?:export|dump|download|exfiltrate|copy) (?:all|every|the (?:whole|entire))\b|\bdump (?:the )?database\b|导出全部/i;
const LARGE = /\b(?:refactor|rewrite|migrat(?:e|ion)|re-?architect|redesign|overhaul)\b|重构|重写|迁移/i;
const CREDENTIAL_ASK = /\b(?:password|api[ _-]?key|secret|token|credential|private key)\b|密码|密钥/i;

export function run(ctx: HandlerContext): Verdict {
  const prompt = typeof ctx.payload.prompt === 'string' ? ctx.payload.prompt : '';
  const red = redact(prompt);
  const reasons: string[] = [];
  const suggestions: string[] = [];
  let risk: Risk = 'low';
  if (red.count > 0) {
    reasons.push('credential-present');
    risk = 'high';
  }
  if (DESTRUCTIVE.test(prompt)) {
    reasons.push('destructive-intent');
    if (risk !== 'high') risk = 'medium';
    suggestions.push('confirm the scope and keep a backup before destructive steps');
  }
  if (EXPORT.test(prompt)) {
    reasons.push('bulk-data-export');
    if (risk !== 'high') risk = 'medium';
  }
  if (LARGE.test(prompt) || prompt.length > 4000) {
    reasons.push('large-change');
    suggestions.push('write a spec first (specs/<name>/) and agree on it before changing code');
  }
  if (CREDENTIAL_ASK.test(prompt) && red.count === 0) reasons.push('mentions-credentials');
  const audit = [{ kind: 'prompt', risk, data: { text: clipRedacted(prompt, 8000), length: prompt.length, reasons, suggestions } }];
  if (red.count > 0) {
    let mode = 'deny';
    try {
      mode = loadPolicy(join(__dirname, '..'), String(ctx.payload.loom_project_dir ?? process.cwd()), ctx.hook.policy).promptSecret;
    } catch (e) {
      if (e instanceof PolicyError) return { status: 'failed', message: `invalid policy: ${e.message.split('\n')[0]}` };
      throw e;
    }
    const rewriteSupported = ctx.payload.harness === 'enterprise' && ctx.payload.hook_event_name === 'PreUserPromptSubmit';
    if (mode === 'redact' && rewriteSupported) return { status: 'ok', risk, updatedPrompt: red.value, audit, message: `redacted ${red.count} secret(s) from the prompt` };
    if (mode !== 'allow') {
      return { status: 'ok', risk, decision: 'deny', reason: `prompt-secret: the prompt contains ${red.count} live secret(s); remove them and use an environment variable or a secret store instead`, audit };
    }
  }
  const context = suggestions.length ? `loom: ${suggestions.join('; ')}.` : undefined;
  return { status: 'ok', risk, additionalContext: context, audit };
}
