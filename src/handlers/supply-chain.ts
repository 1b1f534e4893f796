// Seed 004's supply-chain events. ConnectorAdded: the URL must be https and
// on the policy's connectorAllowlist. ExpertSuiteAdded / SkillAdded: the
// content_digest must match the files, and no file may run on its own
// (install hooks, lifecycle scripts) or tell the agent to send data to a
// host outside dataHostAllowlist. Every file's path, size and SHA-256 is
// recorded.
//
// content_digest layout (hex SHA-256): the files sorted by path (byte order
// of the UTF-8 path); for each, the UTF-8 path, one 0x00 byte, the decoded
// content's length as an 8-byte big-endian integer, then the content bytes.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { HandlerContext, Verdict } from '../contract/types';
import { handlerEnv, isVerdict } from '../guards/context';

interface InFile {
  path: string;
  bytes: Buffer;
}

export function contentDigest(files: InFile[]): string {
  const h = createHash('sha256');
  const sorted = [...files].sort((a, b) => Buffer.compare(Buffer.from(a.path, 'utf8'), Buffer.from(b.path, 'utf8')));
  for (const f of sorted) {
    const len = Buffer.alloc(8);
    len.writeBigUInt64BE(BigInt(f.bytes.length));
    h.update(Buffer.from(f.path, 'utf8')).update(Buffer.from([0])).update(len).update(f.bytes);
  }
  return h.digest('hex');
}

function hostAllowed(host: string, list: string[]): boolean {
  const h = host.toLowerCase();
  return list.some((a) => {
    const x = a.toLowerCase();
    return x.startsWith('*.') ? h.endsWith(x.slice(1)) || h === x.slice(2) : h === x;
  });
}

const SEND = /\b(?:send|upload|post|forward|exfiltrate|transmit|report|sync)\b|发送|上传|回传|同步/i;
const URL_RE = /\bhttps?:\/\/([A-Za-z0-9.-]{1,253})(?::\d{1,5})?/g;

function problemsIn(f: InFile, allow: string[]): string[] {
  const out: string[] = [];
  const p = f.path.replace(/\\/g, '/');
  const text = f.bytes.toString('utf8');
  if (/(?:^|\/)hooks?\//.test(p) || /(?:^|\/)(?:install|postinstall|preinstall|setup|autorun|startup)\.(?:sh|bash|ps1|bat|cmd|py|js)$/i.test(p)) out.push(`${p}: a script that runs on its own (install or hook script)`);
  if (/(?:^|\/)package\.json$/.test(p)) {
    try {
      const scripts = (JSON.parse(text) as { scripts?: Record<string, unknown> }).scripts ?? {};
      for (const k of ['preinstall', 'install', 'postinstall', 'prepare', 'prepublish']) if (scripts[k]) out.push(`${p}: npm lifecycle script "${k}" runs on install`);
    } catch {
      // not JSON: nothing runs from it
    }
  }
  if (/(?:^|\/)(?:plugin|manifest|settings)\.json$/.test(p)) {
    try {
      const doc = JSON.parse(text) as Record<string, unknown>;
      for (const k of ['hooks', 'postInstall', 'onInstall', 'onLoad', 'autorun', 'startup']) if (doc[k] && (typeof doc[k] !== 'object' || Object.keys(doc[k] as object).length)) out.push(`${p}: "${k}" runs code automatically`);
    } catch {
      // not JSON
    }
  }
  for (const line of text.split('\n').slice(0, 20000)) {
    const hosts = [...line.matchAll(URL_RE)].map((m) => m[1]).filter((h) => !hostAllowed(h, allow));
    if (!hosts.length) continue;
    if (SEND.test(line) || /\bcurl\b[^\n]*\s(?:-d|--data|-F|--form|-T|--upload-file)\b|\bwget\b[^\n]*--post-(?:data|file)/.test(line)) {
      out.push(`${p}: sends data to ${hosts[0]}, which is not on dataHostAllowlist`);
    }
  }
  return out;
}

export function run(ctx: HandlerContext): Verdict {
  const p = ctx.payload;
  const env = handlerEnv(ctx, join(__dirname, '..'));
  if (isVerdict(env)) return env;
  if (ctx.event === 'ConnectorAdded') {
    const c = (p.connector ?? {}) as { name?: string; kind?: string; config?: { url?: string; type?: string } };
    const url = String(c.config?.url ?? '');
    let host = '';
    let https = false;
    try {
      const u = new URL(url);
      host = u.hostname;
      https = u.protocol === 'https:';
    } catch {
      host = '';
    }
    const problems: string[] = [];
    if (c.config?.url !== undefined || c.config?.type === 'http') {
      if (!https) problems.push(`connector URL ${JSON.stringify(url)} is not https`);
      else if (!hostAllowed(host, env.policy.connectorAllowlist)) problems.push(`connector host ${host} is not on connectorAllowlist`);
    }
    const data = { name: c.name ?? null, kind: c.kind ?? null, source: p.source ?? null, config: c.config ?? null, content_digest: p.content_digest ?? null, problems };
    const risk = problems.length ? 'high' : 'low';
    return problems.length
      ? { status: 'ok', decision: 'deny', reason: `connector-not-allowed: ${problems.join('; ')}`, risk, audit: [{ kind: 'supply_chain', risk, data }] }
      : { status: 'ok', risk, audit: [{ kind: 'supply_chain', risk, data }] };
  }
  const bundle = (ctx.event === 'SkillAdded' ? p.skill : p.expert_suite) as { name?: string; version?: string; files?: { path?: unknown; encoding?: unknown; content?: unknown }[] } | undefined;
  const rawFiles = Array.isArray(bundle?.files) ? bundle!.files.slice(0, 2000) : [];
  const files: InFile[] = [];
  const problems: string[] = [];
  rawFiles.forEach((f, i) => {
    if (typeof f?.path !== 'string' || typeof f.content !== 'string') {
      problems.push(`files[${i}]: needs a string path and content`);
      return;
    }
    const bytes = f.encoding === 'base64' ? Buffer.from(f.content, 'base64') : Buffer.from(f.content, 'utf8');
    if (f.path.startsWith('/') || f.path.split(/[\\/]/).includes('..')) problems.push(`files[${i}]: path ${JSON.stringify(f.path)} leaves the bundle`);
    files.push({ path: f.path, bytes });
  });
  const digest = contentDigest(files);
  const claimed = typeof p.content_digest === 'string' ? p.content_digest.toLowerCase() : '';
  if (claimed !== digest) problems.push(`content_digest mismatch: the payload says ${claimed ? claimed.slice(0, 16) + '…' : '(none)'}, the files give ${digest.slice(0, 16)}…`);
  for (const f of files) problems.push(...problemsIn(f, env.policy.dataHostAllowlist));
  const data = {
    name: bundle?.name ?? null,
    version: bundle?.version ?? null,
    source: p.source ?? null,
    content_digest: claimed || null,
    computed_digest: digest,
    files: files.map((f) => ({ path: f.path, bytes: f.bytes.length, sha256: createHash('sha256').update(f.bytes).digest('hex') })),
    problems,
  };
  const risk = problems.length ? 'high' : 'low';
  if (problems.length) return { status: 'ok', decision: 'deny', reason: `supply-chain: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? `; and ${problems.length - 5} more` : ''}`, risk, audit: [{ kind: 'supply_chain', risk, data }] };
  return { status: 'ok', risk, audit: [{ kind: 'supply_chain', risk, data }] };
}
