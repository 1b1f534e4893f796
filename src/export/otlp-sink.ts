// Continuous export of a local ledger to an OpenTelemetry collector over
// OTLP/HTTP JSON. A cursor file (.loom/compliance/otlp-cursor.json: endpoint,
// ledger id, last seq and hash accepted) is replaced atomically after the
// collector answers 2xx, so a restart resumes after the last accepted batch:
// nothing is skipped. A crash between the collector's 2xx and the cursor
// write re-sends that one batch; every log record carries loom.ledger_id,
// loom.seq and loom.hash, the key a backend deduplicates on.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compliancePaths } from '../ledger/paths';
import { LocalSource, ensureLedgerId } from '../team/source';
import { toOtlpRequest, type ExportRecord } from './formats';

export class OtlpError extends Error {
  constructor(
    message: string,
    readonly retry: boolean,
  ) {
    super(message);
  }
}

/** OTLP/HTTP logs endpoint: a bare collector URL gets /v1/logs; loopback or https only unless the user says so. */
export function otlpLogsUrl(text: string): string {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new OtlpError(`--otlp "${text.slice(0, 200)}": not a URL (expected http://host:4318 or https://...)`, false);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new OtlpError(`--otlp "${u.protocol}": expected http or https`, false);
  if (u.username || u.password) throw new OtlpError('--otlp: credentials in the URL are not accepted; use OTEL_EXPORTER_OTLP_HEADERS', false);
  if (u.pathname === '/' || u.pathname === '') u.pathname = '/v1/logs';
  return u.toString();
}

/** Headers from OTEL_EXPORTER_OTLP_HEADERS / OTEL_EXPORTER_OTLP_LOGS_HEADERS (k=v,k2=v2, values URL-encoded). */
export function otlpHeaders(env: NodeJS.ProcessEnv): Record<string, string> {
  const h: Record<string, string> = {};
  for (const src of [env.OTEL_EXPORTER_OTLP_HEADERS, env.OTEL_EXPORTER_OTLP_LOGS_HEADERS]) {
    for (const part of (src ?? '').split(',')) {
      const i = part.indexOf('=');
      if (i <= 0) continue;
      try {
        h[decodeURIComponent(part.slice(0, i).trim())] = decodeURIComponent(part.slice(i + 1).trim());
      } catch {
        // an undecodable header is skipped, never printed (it may hold a key)
      }
    }
  }
  return h;
}

export async function postOtlp(url: string, records: ExportRecord[], headers: Record<string, string> = {}, timeoutMs = 10_000): Promise<void> {
  let res: Response;
  try {
    res = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(toOtlpRequest(records)), signal: AbortSignal.timeout(timeoutMs) });
  } catch (e) {
    throw new OtlpError(`OTLP collector ${new URL(url).origin} unreachable: ${(e as Error).message}`, true);
  }
  const text = await res.text().catch(() => '');
  if (res.status >= 200 && res.status < 300) {
    // A partial success names rejected records: they will not be re-sent by a retry, so it is an error to report.
    try {
      const body = text ? (JSON.parse(text) as { partialSuccess?: { rejectedLogRecords?: string | number; errorMessage?: string } }) : {};
      const rejected = Number(body.partialSuccess?.rejectedLogRecords ?? 0);
      if (rejected > 0) throw new OtlpError(`OTLP collector rejected ${rejected} log records: ${String(body.partialSuccess?.errorMessage ?? '').slice(0, 200)}`, false);
    } catch (e) {
      if (e instanceof OtlpError) throw e;
    }
    return;
  }
  // 429/502/503/504 are retryable per the OTLP spec; other 4xx are not (the batch would fail again).
  const retry = [429, 502, 503, 504].includes(res.status) || res.status >= 500;
  throw new OtlpError(`OTLP collector answered ${res.status}: ${text.replace(/\s+/g, ' ').slice(0, 200)}`, retry);
}

interface Cursor {
  endpoint: string;
  ledger_id: string;
  seq: number;
  hash: string;
}

export interface OtlpStepResult {
  sent: number;
  seq: number;
  /** The record at the cursor no longer has the hash sent: the local chain was rewritten after export. */
  fork?: string;
}

export class OtlpExporter {
  private readonly cursorFile: string;

  constructor(
    private readonly projectDir: string,
    readonly endpoint: string,
    private readonly headers: Record<string, string> = {},
    private readonly batch = 1000,
  ) {
    this.cursorFile = join(compliancePaths(projectDir).dir, 'otlp-cursor.json');
  }

  private readCursor(ledgerId: string): Cursor {
    try {
      const c = JSON.parse(readFileSync(this.cursorFile, 'utf8')) as Cursor;
      if (c.endpoint === this.endpoint && c.ledger_id === ledgerId && Number.isInteger(c.seq) && c.seq >= 0) return c;
    } catch {
      // no cursor yet (or unreadable: start over; the backend dedups on ledger id + seq + hash)
    }
    return { endpoint: this.endpoint, ledger_id: ledgerId, seq: 0, hash: '' };
  }

  private writeCursor(c: Cursor): void {
    const tmp = `${this.cursorFile}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(c) + '\n');
    renameSync(tmp, this.cursorFile);
  }

  /** Sends everything after the cursor, batch by batch; throws OtlpError when the collector fails (the cursor stays at the last accepted batch). */
  async step(maxBatches = Infinity): Promise<OtlpStepResult> {
    const info = ensureLedgerId(this.projectDir);
    if (!info) return { sent: 0, seq: 0 };
    const cur = this.readCursor(info.ledgerId);
    const src = new LocalSource(this.projectDir);
    const result: OtlpStepResult = { sent: 0, seq: cur.seq };
    try {
      if (cur.seq > 0) {
        const at = src.recordAt(cur.seq);
        if (at && at.hash !== cur.hash) result.fork = `local seq ${cur.seq} now hashes ${at.hash.slice(0, 12)}…, exported as ${cur.hash.slice(0, 12)}…: the local chain was rewritten after export`;
      }
      for (let b = 0; b < maxBatches; b++) {
        const rows = src.readAfter(cur.seq, this.batch);
        if (!rows.length) break;
        await postOtlp(this.endpoint, rows.map((r) => ({ ledgerId: info.ledgerId, seq: r.seq, hash: r.hash, body: r.body })), this.headers);
        const last = rows[rows.length - 1];
        cur.seq = last.seq;
        cur.hash = last.hash;
        this.writeCursor(cur);
        result.sent += rows.length;
        result.seq = cur.seq;
        if (rows.length < this.batch) break;
      }
    } finally {
      src.close();
    }
    return result;
  }
}
