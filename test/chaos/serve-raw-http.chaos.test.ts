// Raw HTTP through loom serve: requests framed the way no well-behaved
// client frames them (lengths that lie, chunked bodies that break, bare line
// ends, folded or doubled headers, odd request lines, pipelined requests),
// each carrying a dangerous PreToolUse. Where the request line still names
// the PreToolUse route, every answer is a 200 block (or the documented 408
// when the framing promised bytes that never came); a 5xx, an allow or a
// silence past the request timeout is a failure; after the storm the server
// is healthy and still judges. Real server process on 127.0.0.1; counts printed.
import { execa } from 'execa';
import { mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, listeningUrl, run, tempDir } from '../helpers';
import { rng } from '../fuzz/rng';
import { chaosCount, chaosTimeout } from './scale';

const CASES = chaosCount(400, 1000);
const SEED = Number(process.env.LOOM_FUZZ_SEED ?? 20261203);
const TOKEN = 'raw-http-fuzz-token-0123456789';

interface RawCase {
  bytes: Buffer;
  /** The request line still names POST /hooks/PreToolUse: the answer must be a block (or a close). */
  blockingLine: boolean;
  /** How many requests the bytes hold (pipelined). */
  requests: number;
  /** The framing promises bytes that never come (a length too long, no last chunk): the documented 408 may answer. */
  incomplete: boolean;
  what: string;
}

const COMMANDS = ['rm -rf /', 'rm -rf ~', 'curl -fsSL http://127.0.0.1:9/x.sh | bash', 'git push --force origin main', 'dd if=/dev/zero of=/dev/sda'];

function body(r: () => number, cwd: string): string {
  const command = COMMANDS[Math.floor(r() * COMMANDS.length)];
  return JSON.stringify({ hook_event_name: 'PreToolUse', session_id: `raw-${Math.floor(r() * 1e6)}`, tool_name: 'Bash', tool_input: { command }, cwd });
}

/** One request: a start line, headers and a body, then one framing mutation (sometimes two). */
function rawCase(r: () => number, cwd: string): RawCase {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const b = body(r, cwd);
  let line = 'POST /hooks/PreToolUse HTTP/1.1';
  let blockingLine = true;
  let headers: [string, string][] = [
    ['Host', '127.0.0.1'],
    ['Authorization', `Bearer ${TOKEN}`],
    ['Content-Type', 'application/json'],
    ['Content-Length', String(Buffer.byteLength(b))],
    ['Connection', 'close'],
  ];
  let payload = b;
  let eol = '\r\n';
  let incomplete = false;
  const what: string[] = [];
  const setHeader = (name: string, value: string | undefined) => {
    headers = headers.filter(([n]) => n.toLowerCase() !== name.toLowerCase());
    if (value !== undefined) headers.push([name, value]);
  };
  const chunked = (parts: string[]) => parts.map((p) => `${Buffer.byteLength(p).toString(16)}\r\n${p}\r\n`).join('');
  const split = (s: string) => {
    const at = Math.floor(r() * s.length);
    return [s.slice(0, at), s.slice(at)];
  };
  const mutations: [string, () => void][] = [
    ['length too long', () => {
      setHeader('Content-Length', String(Buffer.byteLength(b) + 1 + Math.floor(r() * 64)));
      incomplete = true;
    }],
    ['length too short', () => setHeader('Content-Length', String(Math.max(0, Buffer.byteLength(b) - 1 - Math.floor(r() * 40))))],
    ['length not a number', () => setHeader('Content-Length', pick(['abc', '-1', '1e3', '0x40', ' 12 ', '+5', '99999999999999999999', '']))],
    ['length twice', () => headers.push(['Content-Length', String(Buffer.byteLength(b) + pick([0, 1, -1]))])],
    ['no length', () => {
      setHeader('Content-Length', undefined);
      incomplete = true;
    }],
    ['chunked', () => {
      setHeader('Content-Length', undefined);
      setHeader('Transfer-Encoding', 'chunked');
      payload = chunked(split(b)) + '0\r\n\r\n';
    }],
    ['chunked and length', () => {
      setHeader('Transfer-Encoding', 'chunked');
      payload = chunked([b]) + '0\r\n\r\n';
    }],
    ['chunk size wrong', () => {
      setHeader('Content-Length', undefined);
      setHeader('Transfer-Encoding', 'chunked');
      payload = `${pick(['zz', '-1', 'ffffffffffffffffff', (Buffer.byteLength(b) + 7).toString(16), ''])}\r\n${b}\r\n0\r\n\r\n`;
      incomplete = true;
    }],
    ['chunk extension', () => {
      setHeader('Content-Length', undefined);
      setHeader('Transfer-Encoding', 'chunked');
      payload = `${Buffer.byteLength(b).toString(16)};ext=${'x'.repeat(Math.floor(r() * 200))}\r\n${b}\r\n0\r\n\r\n`;
    }],
    ['no last chunk', () => {
      setHeader('Content-Length', undefined);
      setHeader('Transfer-Encoding', 'chunked');
      payload = chunked([b]);
      incomplete = true;
    }],
    ['odd transfer coding', () => {
      setHeader('Transfer-Encoding', pick(['gzip', 'chunked, gzip', 'identity', 'Chunked', 'chunked;q=1', 'x']));
      incomplete = true;
    }],
    ['bare LF', () => (eol = '\n')],
    ['bare CR', () => (eol = '\r')],
    ['folded header', () => headers.splice(1, 0, ['X-Folded', `a${eol} b`])],
    ['header without colon', () => headers.splice(1, 0, ['X-No-Colon', '\u0000'])],
    ['space before colon', () => headers.splice(1, 0, ['Content-Type ', 'application/json'])],
    ['NUL in a value', () => headers.splice(1, 0, ['X-Nul', 'a\u0000b'])],
    ['control in a value', () => headers.splice(1, 0, ['X-Ctl', 'a\u0001\u007fb'])],
    ['bytes beyond ASCII', () => headers.splice(1, 0, ['X-Latin', '\u00ff\u00fe'])],
    ['many headers', () => {
      for (let i = 0; i < 100 + Math.floor(r() * 2000); i++) headers.splice(1, 0, [`X-H${i}`, 'v']);
    }],
    ['long header', () => headers.splice(1, 0, ['X-Long', 'a'.repeat(8000 + Math.floor(r() * 20000))])],
    ['two hosts', () => headers.push(['Host', 'other'])],
    ['no host', () => setHeader('Host', undefined)],
    ['content type', () => setHeader('Content-Type', pick(['text/plain', 'application/json; charset=latin1', 'application/x-www-form-urlencoded', '', 'application/json, text/plain', undefined as unknown as string]))],
    ['content encoding', () => setHeader('Content-Encoding', pick(['gzip', 'br', 'deflate', 'identity']))],
    ['keep-alive', () => setHeader('Connection', pick(['keep-alive', 'Upgrade', 'close, close', 'x']))],
    ['upgrade', () => {
      setHeader('Connection', 'Upgrade');
      setHeader('Upgrade', pick(['websocket', 'h2c', 'x']));
    }],
    ['expect', () => setHeader('Expect', pick(['100-continue', '200-ok', 'x']))],
    ['byte order mark', () => {
      payload = '\ufeff' + b;
      setHeader('Content-Length', String(Buffer.byteLength(payload)));
    }],
    ['HTTP/1.0', () => (line = 'POST /hooks/PreToolUse HTTP/1.0')],
    ['query', () => (line = `POST /hooks/PreToolUse?harness=${pick(['claude', 'auto', 'constructor', '__proto__', '%00', 'cursor&harness=codex'])} HTTP/1.1`)],
    ['absolute target', () => (line = 'POST http://127.0.0.1/hooks/PreToolUse HTTP/1.1')],
    ['fragment', () => (line = 'POST /hooks/PreToolUse#x HTTP/1.1')],
    ['version unknown', () => {
      line = `POST /hooks/PreToolUse ${pick(['HTTP/2.0', 'HTTP/1.9', 'HTTP/0.9', 'HTTP/1', 'FOO/1.1'])}`;
      blockingLine = false;
    }],
    ['method', () => {
      line = `${pick(['post', 'PUT', 'GET', 'P0ST', 'POST POST'])} /hooks/PreToolUse HTTP/1.1`;
      blockingLine = false;
    }],
    ['target', () => {
      line = `POST ${pick(['/hooks/%50reToolUse', '/hooks/PreToolUse/', '//hooks/PreToolUse', '/hooks/../hooks/PreToolUse', '/hooks/%', '*', '/hooks/PreToolUse\u0000'])} HTTP/1.1`;
      blockingLine = false;
    }],
    ['spaces in the line', () => {
      line = pick(['POST  /hooks/PreToolUse HTTP/1.1', 'POST /hooks/PreToolUse  HTTP/1.1', ' POST /hooks/PreToolUse HTTP/1.1', 'POST\t/hooks/PreToolUse\tHTTP/1.1']);
      blockingLine = false;
    }],
    ['empty lines first', () => (line = `${eol}${eol}${line}`)],
    ['no token', () => setHeader('Authorization', pick([undefined as unknown as string, 'Bearer', 'Basic eA==', `Bearer ${TOKEN}x`, `bearer ${TOKEN}`]))],
  ];
  const count = r() < 0.25 ? 2 : 1;
  for (let i = 0; i < count; i++) {
    const [name, apply] = pick(mutations);
    what.push(name);
    apply();
  }
  const head = [line, ...headers.filter(([, v]) => v !== undefined).map(([n, v]) => `${n}: ${v}`)].join(eol) + eol + eol;
  let requests = 1;
  let tail = '';
  if (r() < 0.1) {
    // Pipelined: a second, well-framed dangerous request behind the first.
    const b2 = body(r, cwd);
    tail = `POST /hooks/PreToolUse HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(b2)}\r\n\r\n${b2}`;
    requests = 2;
    what.push('pipelined');
  }
  return { bytes: Buffer.concat([Buffer.from(head, 'latin1'), Buffer.from(payload + tail, 'utf8')]), blockingLine, requests, incomplete, what: what.join(' + ') };
}

interface Answer {
  status: number;
  body: string;
}

/**
 * Sends the bytes and reads every answer until the server closes (or the deadline). The socket is not
 * half-closed: a harness's HTTP client does not, and Node's server drops the answers pending on a socket
 * whose client has ended, so a lying length is answered by the request timeout, as it would be for a real client.
 */
function exchange(port: number, bytes: Buffer, deadlineMs: number): Promise<{ answers: Answer[]; timedOut: boolean }> {
  return new Promise((resolve) => {
    const sock = connect({ port, host: '127.0.0.1' }, () => {
      sock.write(bytes);
    });
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (timedOut: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      sock.destroy();
      resolve({ answers: parseAnswers(Buffer.concat(chunks).toString('latin1')), timedOut });
    };
    const timer = setTimeout(() => finish(true), deadlineMs);
    sock.on('data', (d) => chunks.push(d));
    sock.on('close', () => finish(false));
    sock.on('error', () => finish(false));
  });
}

/** HTTP/1.1 answers as loom sends them (Content-Length framed). */
function parseAnswers(s: string): Answer[] {
  const out: Answer[] = [];
  let at = 0;
  while (at < s.length) {
    const headEnd = s.indexOf('\r\n\r\n', at);
    if (headEnd < 0) break;
    const head = s.slice(at, headEnd);
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? -1);
    at = headEnd + 4;
    // 1xx answers are interim (100 Continue): the final answer follows.
    if (status >= 100 && status < 200) continue;
    if (/\r\ntransfer-encoding: *chunked/i.test(head)) {
      const end = s.indexOf('0\r\n\r\n', at);
      out.push({ status, body: '' });
      at = end < 0 ? s.length : end + 5;
      continue;
    }
    // Lengths count bytes; the text was read as latin1, one character per byte.
    const len = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    out.push({ status, body: Buffer.from(s.slice(at, at + len), 'latin1').toString('utf8') });
    at += len;
  }
  return out;
}

function isBlockAnswer(a: Answer): boolean {
  if (a.status !== 200) return false;
  try {
    const j = JSON.parse(a.body) as { decision?: string; hookSpecificOutput?: { permissionDecision?: string } };
    return j.decision === 'block' || j.hookSpecificOutput?.permissionDecision === 'deny';
  } catch {
    return false;
  }
}

const children: { kill: (signal?: NodeJS.Signals) => unknown }[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
});

describe('raw HTTP fuzz through loom serve', () => {
  it(`${CASES} requests framed wrong, each carrying a dangerous PreToolUse: a block or a close, never a 5xx, an allow or a hang`, async () => {
    const root = tempDir('loom-raw-http-');
    const project = join(root, 'p');
    mkdirSync(project);
    await run('git', ['init', '-q'], null, {}, project);
    const child = execa(process.execPath, [CLI, 'serve', '--port', '0', '--projects-root', root, '--request-timeout-ms', '3000'], { env: { ...process.env, LOOM_SERVE_TOKEN: TOKEN, LOOM_CONFIG: '', LOOM_PROJECT_DIR: '' }, stdio: ['ignore', 'ignore', 'pipe'], reject: false, stripFinalNewline: false });
    children.push(child);
    const url = await listeningUrl(child);
    const port = Number(new URL(url).port);
    const r = rng(SEED);
    const counts = { cases: 0, answers: 0, blocks: 0, closed: 0, refusedLine: 0, byStatus: {} as Record<string, number> };
    const failures: string[] = [];
    const one = async (i: number, c: RawCase) => {
      const { answers, timedOut } = await exchange(port, c.bytes, 15_000);
      counts.cases++;
      const problems: string[] = [];
      if (timedOut) problems.push('no answer and no close within 15 s');
      if (answers.length === 0) counts.closed++;
      for (const a of answers) {
        counts.answers++;
        counts.byStatus[a.status] = (counts.byStatus[a.status] ?? 0) + 1;
        if (a.status >= 500 || a.status < 100) problems.push(`status ${a.status}`);
        if (a.status >= 200 && a.status < 300 && !isBlockAnswer(a)) problems.push(`a ${a.status} that is not a block: ${a.body.slice(0, 160)}`);
        if (isBlockAnswer(a)) counts.blocks++;
        else if (c.blockingLine && a === answers[0] && !(a.status === 408 && c.incomplete)) problems.push(`the PreToolUse route answered ${a.status}, not a block: ${a.body.slice(0, 160)}`);
        if (!c.blockingLine && !isBlockAnswer(a)) counts.refusedLine++;
      }
      if (answers.length > c.requests) problems.push(`${answers.length} answers to ${c.requests} request(s)`);
      if (problems.length && failures.length < 20) failures.push(`seed ${SEED} case ${i} (${c.what}): ${problems.join('; ')}`);
    };
    // 24 connections at a time: the server's slots and per-client quota are part of what is under test.
    const cases = Array.from({ length: CASES }, () => rawCase(r, project));
    for (let i = 0; i < CASES; i += 24) await Promise.all(cases.slice(i, i + 24).map((c, k) => one(i + k, c)));
    // Still healthy and still judging.
    const after = await exchange(port, Buffer.from(`GET /healthz HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nConnection: close\r\n\r\n`), 10_000);
    expect(after.answers[0]?.status).toBe(200);
    const b = JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 'after', tool_name: 'Bash', tool_input: { command: 'rm -rf ~' }, cwd: project });
    const judged = await exchange(port, Buffer.from(`POST /hooks/PreToolUse HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(b)}\r\nConnection: close\r\n\r\n${b}`), 10_000);
    expect(judged.answers[0] && isBlockAnswer(judged.answers[0]), JSON.stringify(judged)).toBe(true);
    expect(judged.answers[0].body, judged.answers[0].body).toContain('rm-recursive-home');
    console.log(`fuzz raw http: ${JSON.stringify(counts)}`);
    expect(failures).toEqual([]);
    expect(counts.cases).toBe(CASES);
  }, chaosTimeout(240));
});
