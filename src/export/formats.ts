// Export formats for ledger records: JSONL, OTLP/HTTP JSON log records and
// CEF lines. Each carries the record's body verbatim with its seq and hash,
// so the copy in a SIEM stays checkable (sha256 of the body is the hash; the
// chain links through prev_hash inside the body). Pure functions: the
// sources (local ledger, team store) and the sinks (stdout, a collector)
// live elsewhere.

export interface ExportRecord {
  ledgerId: string;
  seq: number;
  hash: string;
  /** The record as the chain hashed it (canonical JSON), never re-encoded. */
  body: string;
}

export const EXPORT_FORMATS = ['jsonl', 'otlp', 'cef'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const VERSION = '0.1.0';

function parsed(body: string): Record<string, unknown> {
  try {
    const v = JSON.parse(body);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined);

// ---------------------------------------------------------------- JSONL

/** One line (no newline inside: JSON escapes it): ledger id, seq, hash, a few fields to index on, the body verbatim. */
export function toJsonl(r: ExportRecord): string {
  const rec = parsed(r.body);
  return JSON.stringify({ ledger_id: r.ledgerId, seq: r.seq, hash: r.hash, ts: str(rec.ts), event: str(rec.event), decision: str(rec.decision), body: r.body });
}

// ---------------------------------------------------------------- OTLP

type AnyValue = { stringValue: string } | { intValue: string } | { doubleValue: number } | { boolValue: boolean } | { arrayValue: { values: AnyValue[] } } | { kvlistValue: { values: KeyValue[] } };
interface KeyValue {
  key: string;
  value: AnyValue;
}

const MAX_DEPTH = 6;

function anyValue(v: unknown, depth: number): AnyValue | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'string') return { stringValue: v };
  if (typeof v === 'boolean') return { boolValue: v };
  if (typeof v === 'number') return Number.isSafeInteger(v) ? { intValue: String(v) } : Number.isFinite(v) ? { doubleValue: v } : { stringValue: String(v) };
  if (depth >= MAX_DEPTH) return { stringValue: JSON.stringify(v) };
  if (Array.isArray(v)) return { arrayValue: { values: v.map((x) => anyValue(x, depth + 1) ?? { stringValue: '' }) } };
  if (typeof v === 'object') return { kvlistValue: { values: keyValues(v as Record<string, unknown>, depth + 1, '') } };
  return { stringValue: String(v) };
}

function keyValues(o: Record<string, unknown>, depth: number, prefix: string): KeyValue[] {
  const out: KeyValue[] = [];
  for (const [k, v] of Object.entries(o)) {
    const value = anyValue(v, depth);
    if (value) out.push({ key: prefix + k, value });
  }
  return out;
}

/** Nanoseconds since the epoch of an ISO timestamp, keeping sub-millisecond digits; "0" when unparsable. */
export function unixNano(ts: unknown): string {
  if (typeof ts !== 'string') return '0';
  const ms = Date.parse(ts);
  if (Number.isNaN(ms)) return '0';
  const frac = /\.(\d+)/.exec(ts)?.[1] ?? '';
  const subMs = (frac.slice(3) + '000000').slice(0, 6);
  return (BigInt(Math.floor(ms)) * 1_000_000n + BigInt(subMs)).toString();
}

const SEVERITY: Record<string, [number, string]> = { deny: [17, 'ERROR'], block: [17, 'ERROR'], blocked: [17, 'ERROR'], ask: [13, 'WARN'], warn: [13, 'WARN'], rewrite: [13, 'WARN'], allow: [9, 'INFO'] };

/** One OTLP LogRecord: body = the record verbatim, attributes = its fields (loom.*), seq and hash included. */
export function toOtlpLogRecord(r: ExportRecord, observedNano: string): Record<string, unknown> {
  const rec = parsed(r.body);
  const [severityNumber, severityText] = SEVERITY[str(rec.decision) ?? ''] ?? [9, 'INFO'];
  const attributes: KeyValue[] = [
    { key: 'loom.ledger_id', value: { stringValue: r.ledgerId } },
    { key: 'loom.seq', value: { intValue: String(r.seq) } },
    { key: 'loom.hash', value: { stringValue: r.hash } },
    ...keyValues(Object.fromEntries(Object.entries(rec).filter(([k]) => k !== 'seq' && k !== 'hash')), 0, 'loom.'),
  ];
  return { timeUnixNano: unixNano(rec.ts), observedTimeUnixNano: observedNano, severityNumber, severityText, body: { stringValue: r.body }, attributes, eventName: `loom.${str(rec.event) ?? 'record'}` };
}

/** An ExportLogsServiceRequest (OTLP/HTTP JSON) for records, one resource per ledger. */
export function toOtlpRequest(records: ExportRecord[], observed = new Date()): Record<string, unknown> {
  const observedNano = (BigInt(observed.getTime()) * 1_000_000n).toString();
  const byLedger = new Map<string, ExportRecord[]>();
  for (const r of records) {
    const list = byLedger.get(r.ledgerId);
    if (list) list.push(r);
    else byLedger.set(r.ledgerId, [r]);
  }
  return {
    resourceLogs: [...byLedger].map(([ledgerId, recs]) => ({
      resource: { attributes: [{ key: 'service.name', value: { stringValue: 'loom' } }, { key: 'loom.ledger_id', value: { stringValue: ledgerId } }] },
      scopeLogs: [{ scope: { name: 'loom.ledger', version: VERSION }, logRecords: recs.map((r) => toOtlpLogRecord(r, observedNano)) }],
    })),
  };
}

// ---------------------------------------------------------------- CEF

/** CEF header field: backslash and pipe escaped; a line break would end the event, so it is written as \n / \r. */
export function cefHeader(v: string): string {
  return v.replace(/[\\|\r\n]/g, (c) => (c === '\r' ? '\\r' : c === '\n' ? '\\n' : '\\' + c));
}

/** CEF extension value: backslash and equals sign escaped, line breaks as \n / \r. */
export function cefValue(v: string): string {
  return v.replace(/[\\=\r\n]/g, (c) => (c === '\r' ? '\\r' : c === '\n' ? '\\n' : '\\' + c));
}

const CEF_SEVERITY: Record<string, number> = { low: 3, medium: 5, high: 8, critical: 10 };

/** One CEF:0 line. The body rides verbatim (escaped) in cs6 so the hash can be recomputed. */
export function toCef(r: ExportRecord): string {
  const rec = parsed(r.body);
  const event = str(rec.event) ?? 'record';
  const decision = str(rec.decision) ?? '';
  const severity = CEF_SEVERITY[str(rec.risk) ?? ''] ?? (decision === 'deny' ? 7 : 3);
  const actor = rec.actor && typeof rec.actor === 'object' ? (rec.actor as Record<string, unknown>) : {};
  const ms = Date.parse(str(rec.ts) ?? '');
  const ext: [string, string | undefined][] = [
    ['rt', Number.isNaN(ms) ? undefined : String(ms)],
    ['act', decision || undefined],
    ['suser', str(actor.user) ?? str(rec.user)],
    ['shost', str(actor.host) ?? str(rec.host)],
    ['cs1Label', 'ledgerId'],
    ['cs1', r.ledgerId],
    ['cn1Label', 'seq'],
    ['cn1', String(r.seq)],
    ['cs2Label', 'hash'],
    ['cs2', r.hash],
    ['cs3Label', 'prevHash'],
    ['cs3', str(rec.prev_hash)],
    ['cs4Label', 'sessionId'],
    ['cs4', str(rec.session_id)],
    ['cs5Label', 'harness'],
    ['cs5', str(rec.harness)],
    ['cs6Label', 'record'],
    ['cs6', r.body],
  ];
  const extension = ext.filter((e): e is [string, string] => e[1] !== undefined).map(([k, v]) => `${k}=${cefValue(v)}`).join(' ');
  return `CEF:0|loom|loom|${cefHeader(VERSION)}|${cefHeader(event)}|${cefHeader(`${event} ${decision}`.trim())}|${severity}|${extension}`;
}

/** Reads a CEF line back (header fields and extensions unescaped): what a SIEM's parser does, for tests and checks. */
export function parseCef(line: string): { header: string[]; ext: Record<string, string> } {
  const header: string[] = [];
  let i = 0;
  let cur = '';
  while (header.length < 7 && i < line.length) {
    const c = line[i++];
    if (c === '\\' && i < line.length) {
      const n = line[i++];
      cur += n === 'n' ? '\n' : n === 'r' ? '\r' : n;
    } else if (c === '|') {
      header.push(cur);
      cur = '';
    } else cur += c;
  }
  const ext: Record<string, string> = {};
  const rest = line.slice(i);
  // Keys are unescaped word characters followed by '='; an escaped \= never starts a key.
  const re = /(?:^| )([A-Za-z0-9_]+)=/g;
  const starts: { key: string; at: number; valueAt: number }[] = [];
  for (let m = re.exec(rest); m; m = re.exec(rest)) {
    let bs = 0;
    for (let j = m.index - 1; j >= 0 && rest[j] === '\\'; j--) bs++;
    if (bs % 2 === 0) starts.push({ key: m[1], at: m.index, valueAt: m.index + m[0].length });
  }
  // A value may contain " key=" only escaped (\=), so the unescaped boundaries above are exact.
  starts.forEach((s, k) => {
    const raw = rest.slice(s.valueAt, k + 1 < starts.length ? starts[k + 1].at : rest.length);
    ext[s.key] = raw.replace(/\\(.)/g, (_, n: string) => (n === 'n' ? '\n' : n === 'r' ? '\r' : n));
  });
  return { header, ext };
}

export function formatOne(format: 'jsonl' | 'cef', r: ExportRecord): string {
  return format === 'jsonl' ? toJsonl(r) : toCef(r);
}
