// Secret redaction, applied before anything is persisted or printed. Every
// pattern starts with a literal prefix or a bounded class and has bounded
// repetition, so matching is linear in the input; no pattern nests
// quantifiers. Assignments (NAME=value, "name": "value") are found by a
// bounded scan and judged by the name's last word and the value's shape.
import { setOwn } from '../util/own';

export interface RedactionResult<T> {
  value: T;
  count: number;
}

interface TokenRule {
  name: string;
  /** Literal substrings one of which every match contains: a cheap test that spares compiling and running the regex. */
  hints: string[];
  re: RegExp;
  /** Index of the capture group to replace; 0 = whole match. */
  group?: number;
  /** Extra shape check on the match, to spare look-alikes. */
  check?: (m: string) => boolean;
}

const mixed = (m: string) => /[0-9]/.test(m) && /[A-Z]/.test(m) && /[a-z]/.test(m);

const TOKEN_RULES: TokenRule[] = [
  { name: 'private-key', hints: ['PRIVATE KEY'], re: /-----BEGIN[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----[\s\S]{0,20000}?(?:-----END[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----|$)/g },
  { name: 'aws-access-key', hints: ['AKIA', 'ASIA', 'ABIA', 'ACCA', 'A3T'], re: /\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b/g },
  { name: 'gcp-api-key', hints: ['AIza'], re: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  { name: 'gcp-oauth-token', hints: ['ya29.'], re: /\bya29\.[0-9A-Za-z_-]{20,2048}/g },
  { name: 'google-oauth-secret', hints: ['GOCSPX-'], re: /\bGOCSPX-[0-9A-Za-z_-]{20,64}/g },
  { name: 'azure-storage-key', hints: ['AccountKey='], re: /\bAccountKey=([A-Za-z0-9+/]{40,120}={0,2})/g, group: 1 },
  { name: 'azure-sas-signature', hints: ['sig='], re: /[?&]sig=([A-Za-z0-9%+/]{20,256}={0,2})/g, group: 1 },
  { name: 'azure-client-secret', hints: ['Q~'], re: /\b[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g, check: mixed },
  { name: 'github-token', hints: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'], re: /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,255}\b/g },
  { name: 'github-fine-grained-token', hints: ['github_pat_'], re: /\bgithub_pat_[A-Za-z0-9_]{22,255}\b/g },
  { name: 'gitlab-token', hints: ['glpat-', 'gldt-', 'glrt-', 'glptt-', 'glsoat-', 'gloas-'], re: /\b(?:glpat|gldt|glrt|glptt|glsoat|gloas)-[A-Za-z0-9_-]{20,64}\b/g },
  { name: 'slack-token', hints: ['xox'], re: /\bxox[abposr]-[A-Za-z0-9-]{10,250}/g },
  { name: 'slack-webhook', hints: ['hooks.slack.com'], re: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9/_-]{20,200}/g },
  { name: 'stripe-key', hints: ['_live_', '_test_'], re: /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,255}\b/g },
  { name: 'stripe-webhook-secret', hints: ['whsec_'], re: /\bwhsec_[A-Za-z0-9]{24,128}\b/g },
  { name: 'anthropic-key', hints: ['sk-ant-'], re: /\bsk-ant-(?:api|admin|sid)\d{2}-[A-Za-z0-9_-]{20,255}/g },
  { name: 'openai-key', hints: ['sk-'], re: /\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,255}(?![A-Za-z0-9_-])/g, check: mixed },
  { name: 'npm-token', hints: ['npm_'], re: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { name: 'pypi-token', hints: ['pypi-'], re: /\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,255}/g },
  { name: 'huggingface-token', hints: ['hf_'], re: /\bhf_[A-Za-z]{34}\b/g },
  { name: 'sendgrid-key', hints: ['SG.'], re: /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b/g },
  { name: 'twilio-key', hints: ['SK'], re: /\bSK[0-9a-f]{32}\b/g },
  { name: 'digitalocean-token', hints: ['_v1_'], re: /\bdo[opr]_v1_[a-f0-9]{64}\b/g },
  { name: 'shopify-token', hints: ['shpat_', 'shpca_', 'shppa_', 'shpss_'], re: /\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b/g },
  { name: 'mailgun-key', hints: ['key-'], re: /\bkey-[0-9a-z]{32}\b/g },
  { name: 'jwt', hints: ['eyJ'], re: /\beyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{8,8192}\.[A-Za-z0-9_-]{16,4096}/g },
  { name: 'bearer-token', hints: ['Bearer', 'Token', 'Basic'], re: /\b(Bearer|Token|Basic)\s{1,4}([A-Za-z0-9._~+/-]{16,4096}={0,2})/g, group: 2 },
  { name: 'url-credentials', hints: ['://'], re: /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:@/?#]{0,256}:([^\s/?#]{1,256})@/gi, group: 1 },
  { name: 'mysql-password-flag', hints: ['mysql', 'mariadb'], re: /\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n]{0,200}?\s-p([^\s'"-][^\s'"]{1,127})/g, group: 1 },
  { name: 'sshpass-password', hints: ['sshpass'], re: /\bsshpass\s{1,4}-p\s{0,4}(['"]?)([^\s'"]{1,128})/g, group: 2 },
  { name: 'redis-password-flag', hints: ['redis-cli'], re: /\bredis-cli\b[^\n]{0,200}?\s-a\s{1,4}([^\s'"]{1,128})/g, group: 1 },
];

const SENSITIVE_LAST = new Set([
  'password', 'passwd', 'pwd', 'pass', 'passphrase', 'secret', 'token', 'apikey', 'credential', 'credentials', 'auth', 'sig', 'signature',
]);
const SENSITIVE_PAIRS = new Set(['api_key', 'access_key', 'secret_key', 'private_key', 'client_secret', 'auth_token', 'access_token', 'refresh_token', 'session_token', 'secret_key_base', 'signing_key', 'encryption_key', 'master_key', 'account_key']);

const nameMemo = new Map<string, boolean>();

/** Does this assignment name hold a secret? Judged by its last word(s), so password_reset_url is not. */
export function isSensitiveName(name: string): boolean {
  let v = nameMemo.get(name);
  if (v === undefined) {
    v = sensitiveName(name);
    if (nameMemo.size < 4096) nameMemo.set(name, v);
  }
  return v;
}

function sensitiveName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  if (words.length === 0) return false;
  const last = words[words.length - 1];
  if (SENSITIVE_LAST.has(last)) return true;
  // Glued names: PGPASSWORD, csrftoken, dbsecret.
  if (/(?:password|passwd|secret|token|apikey)$/.test(last) && !/(?:secretary)$/.test(last)) return true;
  const pair = words.slice(-2).join('_');
  const triple = words.slice(-3).join('_');
  return SENSITIVE_PAIRS.has(pair) || SENSITIVE_PAIRS.has(triple) || (last === 'key' && words.length > 1 && ['api', 'access', 'secret', 'private', 'signing', 'encryption', 'master', 'account', 'license', 'admin', 'service', 'auth'].includes(words[words.length - 2]));
}

function isPlaceholder(v: string): boolean {
  const s = v.replace(/^["']|["']$/g, '');
  if (s.length < 4) return true;
  if (/^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?$/.test(s) || s.startsWith('$(') || s.startsWith('${{') || s.startsWith('%') || s.startsWith('<')) return true;
  if (/^(?:process\.env\.|os\.environ|import\.meta\.env\.|secrets\.|env\.|vars\.|config\.|settings\.)/.test(s)) return true;
  if (/^\[REDACTED/.test(s) || /^\*+$/.test(s) || /^x+$/i.test(s) || /^(?:true|false|null|none|undefined|changeme|example|your[_-].*|placeholder|redacted)$/i.test(s)) return true;
  return false;
}

function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

/** A value that looks like a random key: long, mixed classes, high entropy, and not a hash, UUID, path or URL. */
export function looksRandomSecret(v: string): boolean {
  if (v.length < 24 || v.length > 512) return false;
  if (/^[0-9a-f]+$/i.test(v)) return false; // hex: commit hashes, digests
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v)) return false;
  if (v.includes('/') && !/^[A-Za-z0-9+/]+={0,2}$/.test(v)) return false;
  if (/^(?:data:|https?:|file:|\.{0,2}\/)/.test(v)) return false;
  if (/^sha(?:1|256|384|512)-/.test(v)) return false; // subresource integrity in lockfiles
  if (!/[a-z]/.test(v) || !/[A-Z]/.test(v) || !/[0-9]/.test(v)) return false;
  return entropy(v) >= 4.0;
}

// NAME=value, NAME: value, "name": "value", name='value'. The regex finds
// only the name and separator (bounded length); the value is scanned by
// hand, so a value that is not a secret is rescanned for assignments inside
// it (a URL's ?token=...).
const NAME_SEP = /(["']?)([A-Za-z_][A-Za-z0-9_.-]{0,63})\1(\s{0,3}[:=]\s{0,3})(["']?)/g;
const VALUE_STOP = new Set([' ', '\t', '\n', '\r', '"', "'", '`', '&', ';', ',', '|', '<', '>', '(', ')', '{', '}', '[', ']']);
const MAX_VALUE = 512;

/** Three or more word-like runs: an identifier (handleUserCallback2), not a key. */
function looksLikeIdentifier(v: string): boolean {
  return (v.match(/[A-Z]?[a-z]{4,}/g) ?? []).length >= 3;
}

function redactAssignments(text: string): { text: string; count: number } {
  let out = '';
  let last = 0;
  let count = 0;
  NAME_SEP.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = NAME_SEP.exec(text))) {
    const name = m[2];
    const valueStart = m.index + m[0].length;
    let end = valueStart;
    while (end < text.length && end - valueStart < MAX_VALUE && !VALUE_STOP.has(text[end])) end++;
    const value = text.slice(valueStart, end);
    if (!value || value.startsWith('[REDACTED')) continue;
    const sensitive = isSensitiveName(name) && !isPlaceholder(value);
    // Short names (h1: in go.sum, x = ...) are code, not configuration.
    const generic = !sensitive && name.length >= 3 && looksRandomSecret(value) && !looksLikeIdentifier(value);
    if (!sensitive && !generic) continue;
    count++;
    out += text.slice(last, valueStart) + `[REDACTED:${sensitive ? 'assignment' : 'high-entropy'}]`;
    last = end;
    NAME_SEP.lastIndex = end;
  }
  return { text: last === 0 ? text : out + text.slice(last), count };
}

// Cheap pre-check: a word character right before = or : (then the full pattern runs).
const HAS_ASSIGNMENT = /\w["']?\s{0,3}[:=]/;

// No token rule matches fewer than this many characters (a key=value pair included).
const MIN_SECRET_TEXT = 6;

function redactString(input: string): { text: string; count: number } {
  if (input.length < MIN_SECRET_TEXT) return { text: input, count: 0 };
  let count = 0;
  let text = input;
  for (const rule of TOKEN_RULES) {
    if (!rule.hints.some((h) => text.includes(h))) continue;
    rule.re.lastIndex = 0;
    if (!rule.re.test(text)) continue;
    rule.re.lastIndex = 0;
    text = text.replace(rule.re, (m: string, ...groups: unknown[]) => {
      if (rule.check && !rule.check(m)) return m;
      if (rule.group) {
        const g = groups[rule.group - 1] as string | undefined;
        if (!g || g.startsWith('[REDACTED')) return m;
        count++;
        const at = m.lastIndexOf(g);
        return m.slice(0, at) + `[REDACTED:${rule.name}]` + m.slice(at + g.length);
      }
      count++;
      return `[REDACTED:${rule.name}]`;
    });
  }
  if (text.length >= 5 && HAS_ASSIGNMENT.test(text)) {
    const r = redactAssignments(text);
    text = r.text;
    count += r.count;
  }
  return { text, count };
}

export const MAX_REDACT_DEPTH = 64;

/** Redacts every string in a JSON-like value (keys included); returns a new value and the count. */
export function redact<T>(value: T): RedactionResult<T> {
  let count = 0;
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') {
      const r = redactString(v);
      count += r.count;
      return r.text;
    }
    if (v === null || typeof v !== 'object') return v;
    if (depth > MAX_REDACT_DEPTH) return '[TRUNCATED: nested too deep]';
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
    const src = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(src)) {
      const x = src[k];
      // A JSON member whose name says secret: judge the value as if assigned.
      if (typeof x === 'string' && isSensitiveName(k) && !isPlaceholder(x) && !x.startsWith('[REDACTED')) {
        count++;
        setOwn(out, walk(k, depth + 1) as string, '[REDACTED:assignment]');
        continue;
      }
      setOwn(out, walk(k, depth + 1) as string, walk(x, depth + 1));
    }
    return out;
  };
  const result = walk(value, 0) as T;
  return { value: result, count };
}

export function redactText(text: string): string {
  return redactString(text).text;
}
