// Malformed and hostile hook payloads, generated from a seed (a failure names
// its seed and index, so it replays). Each case says whether it carries a
// dangerous shell call on an event that can block: those must be answered
// with that harness's block, whatever else is wrong with the payload.
import { contractFor } from '../../src/contract/events';
import { rng } from './rng';

export interface FuzzCase {
  /** What goes to stdin (or the HTTP body). */
  body: string;
  /** The event the harness would name on the command line (`--event`). */
  event: string;
  harness: string;
  /** A shell call that must be blocked if it parses at all. */
  dangerous: boolean;
  family: string;
}


const DANGEROUS = ['rm -rf /', 'rm -rf ~', 'bash -c "rm -rf /"', 'sudo rm -rf /', 'find / -delete', 'rm -rf /\u0000', 'echo hi; rm -rf /', 'rm -rf / #\u0000x', 'git push --force origin main'];
const HARMLESS = ['ls', 'git status', 'npm test', 'echo constructor', 'toString', 'constructor --help', '__proto__', 'hasOwnProperty x', ''];
const PROTO_NAMES = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', '__defineGetter__', 'prototype'];
const HOSTILE_CWD = ['/proc/self', '/proc/self/cwd', '/', '/nonexistent/deep/path/x', '', 'relative/dir', '/tmp/\u0000x', '/dev', '/sys/kernel', '//', '/tmp/../', 'x'.repeat(5000), 7, null, ['/tmp'], { a: 1 }];

/** A dangerous shell call in each harness's own shape (event spelling, tool name, fields it detects by). */
const SHAPES: { harness: string; event: string; make: (cmd: string) => Record<string, unknown> }[] = [
  { harness: 'claude', event: 'PreToolUse', make: (command) => ({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command } }) },
  { harness: 'codex', event: 'PreToolUse', make: (command) => ({ hook_event_name: 'PreToolUse', session_id: 's', turn_id: 't', tool_name: 'Bash', tool_input: { command } }) },
  { harness: 'gemini', event: 'BeforeTool', make: (command) => ({ hook_event_name: 'BeforeTool', session_id: 's', timestamp: '2026-01-01T00:00:00Z', tool_name: 'run_shell_command', tool_input: { command } }) },
  { harness: 'cursor', event: 'beforeShellExecution', make: (command) => ({ hook_event_name: 'beforeShellExecution', conversation_id: 'c', command, workspace_roots: [] }) },
  { harness: 'docker-agent', event: 'pre_tool_use', make: (command) => ({ hook_event_name: 'pre_tool_use', session_id: 's', tool_name: 'shell', tool_input: { command } }) },
  { harness: 'enterprise', event: 'PreToolUse', make: (command) => ({ hook_event_name: 'PreToolUse', event: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command } }) },
];
const OTHER_EVENTS = ['PostToolUse', 'UserPromptSubmit', 'SessionStart', 'SessionEnd', 'Stop', 'PreCompact', 'Notification', 'SubagentStop', 'PermissionRequest', 'constructor', '__proto__', 'toString', 'NoSuchEvent', 'post_tool_use', 'afterShellExecution'];

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

function nested(depth: number, r: () => number): string {
  const [o, c] = r() < 0.5 ? ['[', ']'] : ['{"a":', '}'];
  return o.repeat(depth) + '1' + c.repeat(depth);
}

/** Junk added beside the dangerous call; it must not change the answer. */
function junk(r: () => number): { key: string; raw: string } {
  const key = pick(r, ['junk', 'tool_response', 'extra', '__proto__', 'constructor', 'toString', 'cwd', 'session_id', 'transcript_path', 'permission_mode', 'tool_use_id', 'stop_hook_active', 'workspace_roots']);
  const kinds: (() => string)[] = [
    () => nested(1 + Math.floor(r() * 6000), r),
    () => nested(200 + Math.floor(r() * 100), r),
    () => (r() < 0.5 ? '1e999' : '-1e999'),
    () => JSON.stringify(pick(r, HOSTILE_CWD)),
    () => JSON.stringify('x'.repeat(Math.floor(r() * 200_000))),
    () => JSON.stringify('\ud800\udfff\u0000\u202e' + 'é'.repeat(10)),
    () => '"\\ud800"',
    () => String(Math.floor(r() * 2 ** 60)),
    () => JSON.stringify(PROTO_NAMES),
    () => '{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}',
    () => '[' + Array.from({ length: 2000 }, () => '{}').join(',') + ']',
    () => 'null',
    () => 'true',
  ];
  return { key, raw: pick(r, kinds)() };
}

function withJunk(base: Record<string, unknown>, r: () => number): string {
  let text = JSON.stringify(base);
  const n = 1 + Math.floor(r() * 3);
  for (let i = 0; i < n; i++) {
    const j = junk(r);
    // A duplicate key is legal JSON (the last wins): junk must not overwrite the call itself, so it goes first.
    text = `{${JSON.stringify(j.key)}:${j.raw},` + text.slice(1);
  }
  if (r() < 0.1) text = '\ufeff' + text;
  if (r() < 0.1) text = '  \n' + text + '\n\n';
  return text;
}

function malformedText(r: () => number, valid: string): string {
  const cut = Math.floor(r() * valid.length);
  return pick(r, [
    () => valid.slice(0, cut),
    () => valid + pick(r, ['}', ']', 'x', ',', '\u0000', ' {}']),
    () => '[' + valid + ']',
    () => pick(r, ['null', '"str"', '42', 'true', '[]', '{', '}', '\u0000', '\ufeff', '{"a":}', "{'a':1}", '{"a":1,}', 'NaN', '{"a":Infinity}']),
    () => valid.replace(/"/g, "'"),
    () => Buffer.from(valid).toString('latin1').replace(/e/g, '\u00ff'),
  ])();
}

export function fuzzCase(seed: number, i: number): FuzzCase {
  const r = rng(seed * 1_000_003 + i);
  const family = r();
  const shape = pick(r, SHAPES);
  if (family < 0.45) {
    // A dangerous call with hostile junk beside it: must be a block.
    const body = withJunk(shape.make(pick(r, DANGEROUS)), r);
    return { body, event: shape.event, harness: shape.harness, dangerous: true, family: 'dangerous+junk' };
  }
  if (family < 0.6) {
    // A dangerous call that does not parse: still a block on an event that can block.
    const body = malformedText(r, JSON.stringify(shape.make(pick(r, DANGEROUS))));
    // A mutation that still parses may have renamed the fields that made it a call: then it is only malformed.
    return { body, event: shape.event, harness: shape.harness, dangerous: !parses(body), family: 'dangerous-malformed' };
  }
  if (family < 0.8) {
    // Prototype names where tables are indexed: tool names, events, commands, kinds.
    const p = shape.make(pick(r, HARMLESS)) as Record<string, unknown>;
    const name = pick(r, PROTO_NAMES);
    const which = r();
    if (which < 0.4 && 'tool_name' in p) p.tool_name = name;
    else if (which < 0.6) p.hook_event_name = name;
    else if (which < 0.8) (p as Record<string, unknown>)[name] = name;
    else p.tool_input = pick(r, [name, [name], { [name]: name }, null, 42, { command: { toString: 'x' } }, { command: [name] }]);
    return { body: withJunk(p, r), event: r() < 0.3 ? name : shape.event, harness: shape.harness, dangerous: false, family: 'prototype-names' };
  }
  // Any event, any shape, malformed or hostile.
  const event = pick(r, OTHER_EVENTS);
  const p: Record<string, unknown> = { hook_event_name: event, session_id: pick(r, ['s', 7, null, '', 'x'.repeat(1000)]), cwd: pick(r, HOSTILE_CWD), tool_name: pick(r, ['Bash', ...PROTO_NAMES]), tool_input: pick(r, [{ command: 'ls' }, 'ls', null, [] as unknown]) };
  const body = r() < 0.5 ? withJunk(p, r) : malformedText(r, JSON.stringify(p));
  return { body, event, harness: shape.harness, dangerous: false, family: 'any-event' };
}

function parses(text: string): boolean {
  const t = text.replace(/^\ufeff/, '');
  // Empty input is the documented `{}`.
  if (t.trim() === '') return true;
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
}

export interface Answer {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

/** Is this answer the harness's block? (exit 2, or the JSON deny/block it reads.) */
export function isBlock(a: Answer): boolean {
  if (a.exitCode === 2) return true;
  const out = a.stdout.trim();
  if (!out) return false;
  try {
    const j = JSON.parse(out) as Record<string, unknown>;
    const hso = (j.hookSpecificOutput ?? j.hook_specific_output) as Record<string, unknown> | undefined;
    return j.decision === 'block' || j.decision === 'deny' || j.permission === 'deny' || j.continue === false || hso?.permissionDecision === 'deny' || hso?.permission_decision === 'deny';
  } catch {
    return false;
  }
}

/** Problems with one answer, empty when it is a documented one. */
export function answerProblems(c: FuzzCase, a: Answer): string[] {
  const out: string[] = [];
  if (a.exitCode !== 0 && a.exitCode !== 1 && a.exitCode !== 2) out.push(`exit ${a.exitCode}`);
  const canBlock = contractFor(c.event)?.canBlock ?? false;
  if (canBlock && a.exitCode === 1) out.push('exit 1 on an event that can block');
  if (c.dangerous && !isBlock(a)) out.push('dangerous call not blocked');
  if (a.stdout.trim()) {
    if (a.stdout.trim().includes('\n')) out.push('more than one line on stdout');
    try {
      JSON.parse(a.stdout);
    } catch {
      out.push('stdout is not JSON');
    }
  }
  if (/\n\s+at /.test(a.stderr) || /\bat .*\.js:\d+:\d+/.test(a.stderr)) out.push('stack trace on stderr');
  if (/(\b[A-Z]{3,}): \1:/.test(a.stderr)) out.push('doubled error prefix');
  return out;
}
