// verify's check of the reviewer's view: history/index.json, every archived
// segment (its SHA-256 in the index) and history.json, line by line against
// the records as the chain walk streams them past. The view is checked, not
// trusted: an edited, missing or extra line is named with its file and seq.
// It may lag behind the database (it is brought up to date at folding), so
// records past its last line are not missing.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { historyLine, type HistoryIndex } from './history-view';
import type { CompliancePaths } from './paths';

export interface HistoryFinding {
  kind: 'history-edited' | 'history-missing' | 'history-extra';
  seq: number;
  detail: string;
}

interface Source {
  file: string;
  lines: string[];
}

function seqOf(l: string): number | undefined {
  try {
    const v = (JSON.parse(l) as { seq?: unknown }).seq;
    return typeof v === 'number' ? v : undefined;
  } catch {
    return undefined;
  }
}

function arrayLines(text: string): string[] | undefined {
  if (text === '[]\n') return [];
  if (!text.startsWith('[\n') || !text.endsWith('\n]\n')) return undefined;
  const inner = text.slice(2, -3);
  return inner ? inner.split(',\n') : [];
}

export class HistoryCheck {
  readonly findings: HistoryFinding[] = [];
  /** Lines compared with their record. */
  checked = 0;
  private sources: (() => Source | undefined)[] = [];
  private cur?: Source;
  private at = 0;

  constructor(paths: CompliancePaths) {
    const rel = (f: string) => f.slice(paths.dir.length + 1);
    let index: HistoryIndex | undefined;
    let indexText: string | undefined;
    try {
      indexText = readFileSync(paths.historyIndex, 'utf8');
    } catch {
      // no archive yet (fewer records than a segment), or it was removed: the segment files tell
    }
    let onDisk: string[] = [];
    try {
      onDisk = readdirSync(paths.historyArchive).filter((f) => /^segment-\d+-\d+\.json$/.test(f)).sort();
    } catch {
      // no archive folder
    }
    if (indexText !== undefined) {
      try {
        index = JSON.parse(indexText) as HistoryIndex;
        if (!Array.isArray(index.segments)) throw new Error('no segment list');
      } catch (e) {
        this.add('history-edited', 1, `${rel(paths.historyIndex)}: unreadable (${(e as Error).message})`);
        index = undefined;
      }
    } else if (onDisk.length) this.add('history-missing', 1, `${rel(paths.historyIndex)} is gone while ${onDisk.length} segment(s) remain`);
    const listed = new Set<string>();
    for (const entry of index?.segments ?? []) {
      const name = String(entry.file).replace(/^history\//, '');
      listed.add(name);
      const file = join(paths.historyArchive, name);
      this.sources.push(() => {
        let text: string;
        try {
          text = readFileSync(file, 'utf8');
        } catch {
          this.add('history-missing', entry.first_seq, `${entry.file} (seq ${entry.first_seq}..${entry.last_seq}) is listed in the index but gone`);
          return undefined;
        }
        if (createHash('sha256').update(text).digest('hex') !== entry.sha256) this.add('history-edited', entry.first_seq, `${entry.file}: its SHA-256 differs from the one in the index`);
        const lines = arrayLines(text);
        if (!lines) this.add('history-edited', entry.first_seq, `${entry.file}: not a history array`);
        return { file: entry.file, lines: lines ?? [] };
      });
    }
    for (const f of onDisk) if (index && !listed.has(f)) this.add('history-extra', 1, `history/${f} is not listed in the index`);
    this.sources.push(() => {
      let text: string;
      try {
        text = readFileSync(paths.history, 'utf8');
      } catch {
        return undefined; // not written yet
      }
      const lines = arrayLines(text);
      if (!lines) this.add('history-edited', 1, 'history.json: not a history array');
      return { file: 'history.json', lines: lines ?? [] };
    });
  }

  private add(kind: HistoryFinding['kind'], seq: number, detail: string): void {
    if (this.findings.length < 20) this.findings.push({ kind, seq, detail });
  }

  /** The next line of the view, across segments then history.json. */
  private peek(): { src: Source; text: string } | undefined {
    for (;;) {
      if (this.cur && this.at < this.cur.lines.length) return { src: this.cur, text: this.cur.lines[this.at] };
      const next = this.sources.shift();
      if (!next) return undefined;
      this.cur = next();
      this.at = 0;
    }
  }

  /** Lines of erased records that still show the body as it was before the erasure (an erase interrupted before the views were rebuilt). */
  readonly notScrubbed: number[] = [];

  /**
   * Called with each record of the chain in seq order. `erasedHash`: the
   * record was erased (verify checked the erasure record); its line may
   * still be the original record, which must then hash to the record's hash.
   */
  record(seq: number, body: string, hash: string, erasedHash?: (body: string) => string): void {
    if (this.findings.length >= 20) return;
    for (;;) {
      const p = this.peek();
      if (!p) return; // the view ends here (it may lag behind the database)
      if (p.text === historyLine({ body, hash })) {
        this.at++;
        this.checked++;
        return;
      }
      const suffix = ',"hash":' + JSON.stringify(hash) + '}';
      if (erasedHash && p.text.endsWith(suffix) && erasedHash(p.text.slice(0, -suffix.length) + '}') === hash) {
        this.notScrubbed.push(seq);
        this.at++;
        this.checked++;
        return;
      }
      const s = seqOf(p.text);
      if (s === seq) {
        this.add('history-edited', seq, `${p.src.file}: the line for seq ${seq} differs from the record in the database`);
        this.at++;
        return;
      }
      if (s !== undefined && s > seq) {
        this.add('history-missing', seq, `${p.src.file}: seq ${seq} is missing (the next line is seq ${s})`);
        return;
      }
      // A line before this seq, a repeated one, or one that is not a record: not in the database here.
      this.add(s === undefined ? 'history-edited' : 'history-extra', s ?? seq, `${p.src.file}: ${s === undefined ? 'a line that is not a record' : `a line for seq ${s} that the database does not hold here`}`);
      this.at++;
    }
  }

  /** After the walk: lines left over are records the database does not hold (a view ahead of the database). */
  finish(headSeq: number): HistoryFinding[] {
    const p = this.findings.length < 20 ? this.peek() : undefined;
    if (p) {
      const s = seqOf(p.text);
      this.add('history-extra', s ?? headSeq + 1, `${p.src.file}: ${s !== undefined ? `seq ${s}` : 'a line'} after the database's head (seq ${headSeq}): the view holds records the database does not`);
    }
    return this.findings;
  }
}
