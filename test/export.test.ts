// loom export (JSONL, OTLP JSON, CEF) and continuous OTLP export from
// `loom ship --watch --otlp`, against a real HTTP collector on 127.0.0.1 that
// checks the OTLP/HTTP JSON shape. Bodies must come back byte for byte with
// their seq and hash, so a SIEM copy can be re-verified.
import { execa } from 'execa';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashBody } from '../src/ledger/chain';
import { Ledger } from '../src/ledger/store';
import { parseCef } from '../src/export/formats';
import { CLI, tempDir } from './helpers';
import { appendRecords, draft, localRows, loom } from './team-helpers';

const HOSTILE = ['line1\nline2\r\nline3', 'a|b|c\\|d', 'k=v x=y \\= \\\\', 'CEF:0|evil|x|1|2|3|10|act=allow', 'ü 漢字 🙂 \u2028 \u0007', 'x'.repeat(200_000), ' cs2=forged cn1=1 ', '\\'];

function hostileProject(): string {
  const dir = tempDir('loom-export-');
  const l = Ledger.openForAppend(dir);
  try {
    l.append(HOSTILE.map((s, i) => draft(i, { session_id: s, decision: i % 2 ? 'deny' : 'allow', data: { tool: s, input_summary: s, nested: { deep: [s, { k: s }] } } } as never)));
  } finally {
    l.close();
  }
  appendRecords(dir, 20, 100);
  return dir;
}

const env = () => ({ HOME: tempDir('loom-home-'), OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=secret%20one' });

describe('loom export', { timeout: 120_000 }, () => {
  it('JSONL and CEF carry every record verbatim with seq and hash, one line each, whatever the fields hold', async () => {
    const p = hostileProject();
    const rows = localRows(p);
    expect(rows.length).toBe(HOSTILE.length + 20);
    const j = await loom(['export', '--format', 'jsonl', '--project-dir', p], env());
    expect(j.stderr).toBe('');
    expect(j.code).toBe(0);
    const lines = j.stdout.trimEnd().split('\n');
    expect(lines.length).toBe(rows.length);
    lines.forEach((line, i) => {
      const o = JSON.parse(line);
      expect(o.seq).toBe(rows[i].seq);
      expect(o.hash).toBe(rows[i].hash);
      expect(o.body).toBe(rows[i].body);
      expect(hashBody(o.body)).toBe(o.hash);
      expect(o.ledger_id).toMatch(/^[A-Za-z0-9_-]{21}$/);
    });

    const out = join(tempDir(), 'x.cef');
    const c = await loom(['export', '--format', 'cef', '--project-dir', p, '--out', out], env());
    expect(c.code).toBe(0);
    const cef = readFileSync(out, 'utf8').trimEnd().split('\n');
    expect(cef.length).toBe(rows.length); // no raw line break inside an event
    cef.forEach((line, i) => {
      expect(line.startsWith('CEF:0|loom|loom|')).toBe(true);
      const { header, ext } = parseCef(line);
      expect(header.length).toBe(7);
      expect(Number(header[6])).toBeGreaterThanOrEqual(0);
      expect(ext.cs6).toBe(rows[i].body);
      expect(ext.cs2).toBe(rows[i].hash);
      expect(ext.cn1).toBe(String(rows[i].seq));
      expect(hashBody(ext.cs6)).toBe(ext.cs2);
    });
    // The session id holding a forged "cs2=" never becomes an extension of its own.
    expect(parseCef(cef[6]).ext.cs4).toBe(' cs2=forged cn1=1 ');
  });

  it('--since keeps only newer records; bad flags are one-line errors with exit 2', async () => {
    const p = hostileProject();
    const none = await loom(['export', '--format', 'jsonl', '--since', '2099-01-01', '--project-dir', p], env());
    expect(none.code).toBe(0);
    expect(none.stdout).toBe('');
    const bad = await loom(['export', '--format', 'xml', '--project-dir', p], env());
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toContain('--format "xml"');
    expect((await loom(['export', '--format', 'jsonl', '--repo', 'x', '--project-dir', p], env())).stderr).toContain('add --team');
  });
});

interface Collector {
  url: string;
  received: { ledger: string; seq: number; hash: string; body: string }[];
  problems: string[];
  failNext: number;
  headers: string[];
  server: Server;
}

/** A minimal OTLP/HTTP JSON logs receiver: checks the shape of every request, answers 503 when told to. */
async function collector(): Promise<Collector> {
  const c: Collector = { url: '', received: [], problems: [], failNext: 0, headers: [], server: undefined as never };
  c.server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d) => chunks.push(d));
    req.on('end', () => {
      if (req.url !== '/v1/logs' || req.method !== 'POST' || !String(req.headers['content-type']).startsWith('application/json')) c.problems.push(`bad request ${req.method} ${req.url} ${req.headers['content-type']}`);
      c.headers.push(String(req.headers['x-api-key']));
      if (c.failNext > 0) {
        c.failNext--;
        res.writeHead(503).end('busy');
        return;
      }
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        if (!Array.isArray(body.resourceLogs)) throw new Error('resourceLogs');
        for (const rl of body.resourceLogs) {
          const resAttr = Object.fromEntries(rl.resource.attributes.map((a: { key: string; value: { stringValue: string } }) => [a.key, a.value.stringValue]));
          if (resAttr['service.name'] !== 'loom') throw new Error('service.name');
          for (const sl of rl.scopeLogs) {
            if (typeof sl.scope?.name !== 'string') throw new Error('scope');
            for (const lr of sl.logRecords) {
              if (!/^\d{19}$/.test(lr.timeUnixNano) || !/^\d+$/.test(lr.observedTimeUnixNano)) throw new Error(`timeUnixNano ${lr.timeUnixNano}`);
              if (typeof lr.severityNumber !== 'number' || typeof lr.body?.stringValue !== 'string') throw new Error('severity/body');
              const attrs = new Map<string, Record<string, unknown>>(lr.attributes.map((a: { key: string; value: Record<string, unknown> }) => [a.key, a.value]));
              for (const [k, v] of attrs) if (typeof k !== 'string' || Object.keys(v).length !== 1 || !['stringValue', 'intValue', 'doubleValue', 'boolValue', 'arrayValue', 'kvlistValue'].includes(Object.keys(v)[0])) throw new Error(`attribute ${k}`);
              const rec = JSON.parse(lr.body.stringValue);
              if (Number(BigInt(lr.timeUnixNano) / 1_000_000n) !== Date.parse(rec.ts)) throw new Error('time does not match ts');
              if (attrs.get('loom.event')?.stringValue !== rec.event || attrs.get('loom.decision')?.stringValue !== rec.decision) throw new Error('fields');
              c.received.push({ ledger: String(attrs.get('loom.ledger_id')?.stringValue), seq: Number(attrs.get('loom.seq')?.intValue), hash: String(attrs.get('loom.hash')?.stringValue), body: lr.body.stringValue });
            }
          }
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } catch (e) {
        c.problems.push((e as Error).message);
        res.writeHead(400).end('bad shape');
      }
    });
  });
  await new Promise<void>((r) => c.server.listen(0, '127.0.0.1', r));
  c.url = `http://127.0.0.1:${(c.server.address() as AddressInfo).port}`;
  return c;
}

describe('OTLP export to a collector', { timeout: 120_000 }, () => {
  let col: Collector;
  beforeAll(async () => {
    col = await collector();
  });
  afterAll(() => col?.server.close());

  it('loom export --format otlp --otlp-url posts well-formed log records: body verbatim, seq, hash, fields as attributes', async () => {
    col.received.length = 0;
    const p = hostileProject();
    const r = await loom(['export', '--format', 'otlp', '--otlp-url', col.url, '--project-dir', p], env());
    expect(r.stderr).toContain(`${HOSTILE.length + 20} records`);
    expect(r.code).toBe(0);
    expect(col.problems).toEqual([]);
    expect(col.headers.at(-1)).toBe('secret one');
    const rows = localRows(p);
    expect(col.received.map((x) => [x.seq, x.hash, x.body])).toEqual(rows.map((x) => [x.seq, x.hash, x.body]));
  });

  it('loom ship --watch --otlp waits out a failing collector, then delivers every record once and in order across a restart', async () => {
    col.received.length = 0;
    col.failNext = 3;
    const p = tempDir('loom-otlp-watch-');
    appendRecords(p, 2500);
    const e = { ...process.env, ...env(), LOOM_TEAM_URL: '', PGPASSWORD: '', LOOM_PROJECT_DIR: '', CLAUDE_PROJECT_DIR: '' };
    const start = () => execa(process.execPath, [CLI, 'ship', '--watch', '--otlp', col.url, '--interval', '0.05', '--project-dir', p], { env: e, stdio: ['ignore', 'ignore', 'pipe'], reject: false, stripFinalNewline: false, extendEnv: false });
    const until = async (cond: () => boolean) => {
      for (let i = 0; i < 600 && !cond(); i++) await new Promise((r) => setTimeout(r, 100));
    };
    let child = start();
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    await until(() => col.received.length >= 2500);
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    expect(err).toContain('503');
    expect(err).toContain('reachable again');
    appendRecords(p, 700, 2500);
    child = start();
    await until(() => col.received.length >= 3200);
    // Give a duplicate a chance to show up before stopping.
    await new Promise((r) => setTimeout(r, 300));
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    expect(col.problems).toEqual([]);
    expect(col.received.map((x) => x.seq)).toEqual(Array.from({ length: 3200 }, (_, i) => i + 1));
    const rows = localRows(p);
    expect(col.received.map((x) => x.hash)).toEqual(rows.map((x) => x.hash));
  });
});
