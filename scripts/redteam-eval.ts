// Scores the guard (and the redactor) on any corpus in JSONL, per family:
//   npx tsx scripts/redteam-eval.ts <guard-dangerous.jsonl> <guard-everyday.jsonl> [secrets.jsonl lookalikes.jsonl] [--quiet]
// Lines (one JSON object each; `cmd` is accepted for `command`, a single
// `secret` / `keep` string for the list):
//   dangerous  {"command": "...", "expect": "deny"|"ask", "family": "..."}
//   everyday   {"command": "...", "family": "..."}
//   secrets    {"text": "...", "secrets": ["..."], "family": "..."}
//   lookalikes {"text": "...", "keep": ["..."], "family": "..."}
// A guard line may instead carry `tool` ({name, input}: an unknown tool's call),
// and `projectDir`, `cwd` or `policy` for its own context. Prints stopped and
// removed percentages per family, then every miss (dangerous let through,
// everyday stopped, secret kept, look-alike removed) unless --quiet.
// Exit 0 when it scored, 2 when a file is missing or a line is not valid.
import { readFileSync } from 'node:fs';
import { guardTable, redactionTable, scoreGuard, scoreRedaction, type GuardCase, type LookalikeCase, type SecretCase } from './guard-eval';

class InputError extends Error {}

function lines(file: string): Record<string, unknown>[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new InputError(`${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const out: Record<string, unknown>[] = [];
  text.split('\n').forEach((l, i) => {
    if (!l.trim()) return;
    let v: unknown;
    try {
      v = JSON.parse(l);
    } catch (e) {
      throw new InputError(`${file}:${i + 1}: not JSON (${(e as Error).message})`);
    }
    if (!v || typeof v !== 'object' || Array.isArray(v)) throw new InputError(`${file}:${i + 1}: not a JSON object`);
    out.push(v as Record<string, unknown>);
  });
  return out;
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : []);

function guardCases(file: string): GuardCase[] {
  return lines(file).map((o, i) => {
    const command = str(o.command) ?? str(o.cmd);
    const tool = o.tool && typeof o.tool === 'object' ? (o.tool as GuardCase['tool']) : undefined;
    if (command === undefined && !tool) throw new InputError(`${file}:${i + 1}: $.command: missing (a string, or a tool object)`);
    const expect = o.expect === 'ask' || o.expect === 'deny' ? o.expect : undefined;
    const policy = o.policy && typeof o.policy === 'object' ? (o.policy as Record<string, unknown>) : undefined;
    return { family: str(o.family) ?? '(none)', command, tool, expect, projectDir: str(o.projectDir), cwd: str(o.cwd), policy };
  });
}

function secretCases(file: string): SecretCase[] {
  return lines(file).map((o, i) => {
    const text = str(o.text);
    const secrets = [...list(o.secrets), ...list(o.secret)];
    if (text === undefined || !secrets.length) throw new InputError(`${file}:${i + 1}: needs "text" and "secrets"`);
    return { family: str(o.family) ?? '(none)', text, secrets };
  });
}

function lookalikeCases(file: string): LookalikeCase[] {
  return lines(file).map((o, i) => {
    const text = str(o.text);
    const keep = list(o.keep);
    if (text === undefined || !keep.length) throw new InputError(`${file}:${i + 1}: needs "text" and "keep"`);
    return { family: str(o.family) ?? '(none)', text, keep };
  });
}

function main(argv: string[]): number {
  const quiet = argv.includes('--quiet');
  const files = argv.filter((a) => !a.startsWith('--'));
  if (files.length !== 2 && files.length !== 4) {
    console.error('usage: npx tsx scripts/redteam-eval.ts <guard-dangerous.jsonl> <guard-everyday.jsonl> [secrets.jsonl lookalikes.jsonl] [--quiet]');
    return 2;
  }
  try {
    const g = scoreGuard(guardCases(files[0]), guardCases(files[1]));
    console.log(`# shell guard: ${files[0]}, ${files[1]}`);
    for (const l of guardTable(g)) console.log(l);
    if (!quiet) {
      console.log(`\ndangerous let through (${g.misses.length}):`);
      for (const m of g.misses) console.log(`  ${m}`);
      console.log(`\neveryday stopped (${g.falseStops.length}):`);
      for (const m of g.falseStops) console.log(`  ${m}`);
    }
    if (files.length === 4) {
      const r = scoreRedaction(secretCases(files[2]), lookalikeCases(files[3]));
      console.log(`\n# redactor: ${files[2]}, ${files[3]}`);
      for (const l of redactionTable(r)) console.log(l);
      if (!quiet) {
        console.log(`\nsecrets kept (${r.misses.length}):`);
        for (const m of r.misses) console.log(`  ${m}`);
        console.log(`\nlook-alikes removed (${r.falseRemovals.length}):`);
        for (const m of r.falseRemovals) console.log(`  ${m}`);
      }
    }
    return 0;
  } catch (e) {
    if (e instanceof InputError) {
      console.error(`redteam-eval: ${e.message}`);
      return 2;
    }
    throw e;
  }
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));
