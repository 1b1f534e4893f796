// loom export --format jsonl|otlp|cef [--since T] [--until T] [--out FILE]
//   [--team [--repo R] [--user U] [--ledger ID]] [--project-dir D]
// Writes records out of the local ledger (default) or the team store (--team),
// bodies verbatim with ledger id, seq and hash (docs/team.md, "Export").
// otlp writes one ExportLogsServiceRequest per line (the OpenTelemetry file
// exporter's format); --otlp-url posts them to a collector instead.
import { closeSync, existsSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseTimeRange } from '../../ledger/query';
import { EXPORT_FORMATS, toCef, toJsonl, toOtlpRequest, type ExportFormat, type ExportRecord } from '../../export/formats';
import { localBatches, storeBatches, type ExportFilter } from '../../export/sources';
import { OtlpError, otlpHeaders, otlpLogsUrl, postOtlp } from '../../export/otlp-sink';
import { classifyPgError, closeQuietly, connect } from '../../team/pg';
import { FlagError, parseFlags, projectDirFrom } from '../flags';
import { teamConfigFrom } from './team';
import { fileReason } from '../../util/file-reason';
import { compliancePaths } from '../../ledger/paths';
import { LedgerError } from '../../ledger/store';

export async function exportCommand(argv: string[]): Promise<number> {
  const f = parseFlags(argv, { values: ['format', 'since', 'until', 'out', 'project-dir', 'team-url', 'repo', 'user', 'ledger', 'otlp-url'], booleans: ['team'] });
  const format = (f.values.format ?? '') as ExportFormat;
  if (f.values.format === undefined) throw new FlagError(`--format is required: one of ${EXPORT_FORMATS.join(', ')}`);
  if (!EXPORT_FORMATS.includes(format)) throw new FlagError(`--format "${String(f.values.format).slice(0, 40)}": expected one of ${EXPORT_FORMATS.join(', ')}`);
  const filter: ExportFilter = {
    ...parseTimeRange(f.values.since, f.values.until),
    repo: f.values.repo,
    user: f.values.user,
    ledger: f.values.ledger,
  };
  const team = f.booleans.has('team');
  if (!team && (filter.repo || filter.user || filter.ledger)) throw new FlagError('--repo, --user and --ledger filter the team store: add --team');
  const postTo = f.values['otlp-url'] ? otlpLogsUrl(f.values['otlp-url']) : undefined;
  if (postTo && format !== 'otlp') throw new FlagError('--otlp-url needs --format otlp');
  if (postTo && f.values.out) throw new FlagError('--otlp-url and --out: choose one');

  // A folder with no ledger has nothing to export: say so (exit 2, as report and history do), rather than an empty file.
  if (!team && !existsSync(compliancePaths(resolve(projectDirFrom(f))).dir)) throw new LedgerError(`${compliancePaths(resolve(projectDirFrom(f))).db}: no ledger database`, 'missing');
  // Written to a temp file renamed at the end, so a failed export never leaves half a file under the final name.
  const out = f.values.out ? resolve(f.values.out) : undefined;
  // Only a regular file (or a new one) is written: the temp file renamed over /dev/full or a FIFO would replace it.
  const existing = out ? statSync(out, { throwIfNoEntry: false }) : undefined;
  if (existing && !existing.isFile()) throw new FlagError(`--out ${out}: not a regular file (write to standard output instead)`);
  const tmp = out ? `${out}.${process.pid}.partial` : undefined;
  let fd = -1;
  if (tmp) {
    try {
      fd = openSync(tmp, 'wx', 0o600);
    } catch (e) {
      // Named as the user gave it: the temp name next to it is ours.
      const code = (e as NodeJS.ErrnoException).code;
      throw new FlagError(`--out ${out}: ${code === 'ENOENT' ? 'its folder does not exist' : fileReason(e)}`);
    }
  }
  const headers = otlpHeaders(process.env);
  let n = 0;
  const emit = async (batch: ExportRecord[]) => {
    n += batch.length;
    if (postTo) return postOtlp(postTo, batch, headers);
    const text = format === 'otlp' ? JSON.stringify(toOtlpRequest(batch)) + '\n' : batch.map((r) => (format === 'jsonl' ? toJsonl(r) : toCef(r))).join('\n') + '\n';
    if (tmp) {
      const buf = Buffer.from(text);
      for (let off = 0; off < buf.length; ) off += writeSync(fd, buf, off);
    } else if (!process.stdout.write(text)) await new Promise((r) => process.stdout.once('drain', r));
  };
  try {
    if (team) {
      const cfg = teamConfigFrom(f);
      const client = await connect(cfg, 'loom export');
      try {
        for await (const b of storeBatches(client, filter, format === 'otlp' ? 1000 : 5000)) await emit(b);
      } catch (e) {
        if (e instanceof OtlpError) throw e;
        throw classifyPgError(e, cfg);
      } finally {
        await closeQuietly(client);
      }
    } else {
      for (const b of localBatches(resolve(projectDirFrom(f)), filter, 0, format === 'otlp' ? 1000 : 2000)) await emit(b);
    }
  } catch (e) {
    // No half export left behind under the temp name either.
    if (tmp) {
      closeSync(fd);
      fd = -1;
      rmSync(tmp, { force: true });
    }
    if (e instanceof OtlpError) {
      process.stderr.write(`loom export: ${e.message} (${n} records handed over before it)\n`);
      return 3;
    }
    throw e;
  } finally {
    if (fd >= 0) closeSync(fd);
  }
  if (tmp && out) renameSync(tmp, out);
  if (out || postTo) process.stderr.write(`loom export: ${n} records${out ? ` to ${out}` : ` to ${postTo}`}\n`);
  return 0;
}
