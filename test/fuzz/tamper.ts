// Attacks on the evidence, each with the kind `loom verify` must name. Each
// takes a project whose ledger holds `n` records (and its checkpoints), and
// a position; the chaos suite runs them at many positions, `npm test` once.
import { execaSync } from 'execa';
import { copyFileSync, cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { hashBody } from '../../src/ledger/chain';
import { canonicalJson } from '../../src/ledger/canonical';
import { appendWitnessFile, externalCheckpointFile } from '../../src/ledger/checkpoints';
import { appendJournal } from '../../src/ledger/journal';

export const dbPath = (project: string) => join(project, '.loom', 'compliance', 'ledger.db');

/** Opens the database as an attacker would: the append-only triggers dropped. */
export function tamper(project: string, fn: (db: Database.Database) => void): void {
  const db = new Database(dbPath(project));
  db.exec('DROP TRIGGER IF EXISTS records_no_update; DROP TRIGGER IF EXISTS records_no_delete;');
  try {
    fn(db);
  } finally {
    db.close();
  }
}

/** Rewrites one record and recomputes its hash (the rest of the chain untouched). */
function rehash(db: Database.Database, seq: number, change: (b: Record<string, unknown>) => void): void {
  const row = db.prepare('SELECT body FROM records WHERE seq = ?').get(seq) as { body: string };
  const b = JSON.parse(row.body);
  change(b);
  const body = canonicalJson(b);
  db.prepare('UPDATE records SET body = ?, hash = ? WHERE seq = ?').run(body, hashBody(body), seq);
}

/** Edits the lines of history.json (the reviewer's view), leaving the database alone. */
export function editHistoryLines(project: string, fn: (lines: string[]) => string[]): void {
  const file = join(project, '.loom', 'compliance', 'history.json');
  const text = readFileSync(file, 'utf8');
  const lines = text === '[]\n' ? [] : text.slice(2, -3).split(',\n');
  const out = fn(lines);
  writeFileSync(file, out.length ? '[\n' + out.join(',\n') + '\n]\n' : '[]\n');
}

/** The index in history.json's lines of the record with this seq. */
const lineOf = (lines: string[], seq: number) => lines.findIndex((l) => JSON.parse(l).seq === seq);

export interface Attack {
  name: string;
  /** The kind verify must report (and, when fixed, the seq). */
  kind: string;
  seq?: (n: number, at: number) => number;
  /** Extra environment for verify (a key, for the downgrade). */
  env?: NodeJS.ProcessEnv;
  apply(project: string, n: number, at: number, env: { stateDir: string }): void;
}

export const ATTACKS: Attack[] = [
  {
    name: 're-hashed row',
    kind: 'edited',
    seq: (_n, at) => at,
    apply: (p, _n, at) => tamper(p, (db) => rehash(db, at, (b) => (b.decision = b.decision === 'deny' ? 'allow' : 'deny'))),
  },
  {
    name: 'distant swap',
    kind: 'reordered',
    seq: (_n, at) => at,
    apply: (p, n, at) =>
      tamper(p, (db) => {
        const other = Math.min(n, at + 2 + ((at * 7) % Math.max(1, n - at - 2)));
        db.exec(`UPDATE records SET seq = -1 WHERE seq = ${at}; UPDATE records SET seq = ${at} WHERE seq = ${other}; UPDATE records SET seq = ${other} WHERE seq = -1;`);
      }),
  },
  {
    name: 'tail cut with its checkpoints in the project',
    kind: 'tail-cut',
    seq: (_n, at) => at,
    apply: (p, _n, at) => {
      tamper(p, (db) => db.prepare('DELETE FROM records WHERE seq >= ?').run(at));
      writeFileSync(join(p, '.loom', 'compliance', 'checkpoints.jsonl'), '');
    },
  },
  {
    name: 'history-only edit (a decision changed in history.json)',
    kind: 'history-edited',
    seq: (_n, at) => at,
    apply: (p, _n, at) =>
      editHistoryLines(p, (lines) => {
        const i = lineOf(lines, at);
        lines[i] = lines[i].includes('"decision":"deny"') ? lines[i].replace('"decision":"deny"', '"decision":"allow"') : lines[i].replace(/"decision":"[a-z]+"/, '"decision":"deny"');
        return lines;
      }),
  },
  {
    name: 'history-only removal (a line dropped from history.json)',
    kind: 'history-missing',
    seq: (_n, at) => at,
    apply: (p, _n, at) => editHistoryLines(p, (lines) => lines.filter((_l, i) => i !== lineOf(lines, at))),
  },
  {
    name: 'history-only insertion (a line repeated in history.json)',
    kind: 'history-extra',
    seq: (_n, at) => at,
    apply: (p, _n, at) =>
      editHistoryLines(p, (lines) => {
        const i = lineOf(lines, at);
        return [...lines.slice(0, i + 1), lines[i], ...lines.slice(i + 1)];
      }),
  },
  {
    // Records appended after the last fold and checkpoint live only in the journal: cutting them with their
    // lines leaves a chain that checks out and a head the checkpoints and the fold's head witness agree with.
    name: 'tail cut after the last fold (records and their journal lines)',
    kind: 'tail-cut',
    seq: (n, at) => n + (at % 5) + 1,
    apply: (p, n, at) => {
      const drafts = Array.from({ length: 5 }, (_, i) => ({ event: 'PostToolUse', hook_id: 'tamper', harness: 'claude', session_id: 's', risk: 'none' as const, decision: 'allow', status: 'ok', kind: 'tool_use', data: { command: `late ${i}` }, redactions: 0 }));
      appendJournal(p, drafts, undefined);
      const keep = n + (at % 5);
      const file = join(p, '.loom', 'compliance', 'journal.log');
      const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
      writeFileSync(file, lines.filter((l) => Number(l.slice(0, l.indexOf(' '))) <= keep).map((l) => l + '\n').join(''));
    },
  },
  {
    name: 'deleted ledger',
    kind: 'ledger-missing',
    apply: (p) => rmSync(join(p, '.loom'), { recursive: true, force: true }),
  },
  {
    name: 'downgrade to a plain chain (rebuilt unkeyed, meta says sha256)',
    kind: 'downgraded',
    env: { LOOM_LEDGER_KEY: 'the project key, at least 16 bytes' },
    apply: (p) =>
      tamper(p, (db) => {
        // The whole chain rebuilt as plain SHA-256, as anyone who can write the file could.
        const rows = db.prepare('SELECT seq, body FROM records ORDER BY seq').all() as { seq: number; body: string }[];
        let prev = '0'.repeat(64);
        for (const r of rows) {
          const b = JSON.parse(r.body);
          b.prev_hash = prev;
          const body = canonicalJson(b);
          prev = hashBody(body);
          db.prepare('UPDATE records SET body = ?, hash = ? WHERE seq = ?').run(body, prev, r.seq);
        }
        db.exec("UPDATE meta SET value = 'sha256' WHERE key = 'chain'; DELETE FROM meta WHERE key = 'key_id';");
      }),
  },
];

/** Copies a prepared project (ledger, history, checkpoints) so each attack starts from the same evidence. */
export function cloneProject(from: string, to: string, extraEnv: NodeJS.ProcessEnv = {}): void {
  const env = { ...process.env, ...extraEnv };
  // The attacks edit the database: fold the journal into it first, as the next reader would.
  const f = execaSync(process.execPath, [join(__dirname, '..', '..', 'bin', 'loom.js'), 'fold', '--project-dir', from], { env, reject: false, stripFinalNewline: false, extendEnv: false });
  if (f.exitCode !== 0) throw new Error(`loom fold: ${f.stderr}`);
  cpSync(from, to, { recursive: true });
  // The copy outside the project is keyed by the project's real path: it follows the clone.
  const a = externalCheckpointFile(from, env);
  const b = externalCheckpointFile(to, env);
  if (a && b && existsSync(a)) copyFileSync(a, b);
  const wa = appendWitnessFile(from, env);
  const wb = appendWitnessFile(to, env);
  if (wa && wb && existsSync(wa)) copyFileSync(wa, wb);
}

