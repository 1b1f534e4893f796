// loom erase --seq N --path $.tool_use.command --reason "..."
// loom erase --match - --reason "..."        (the value on stdin)
// loom erase --match-file F --reason "..."   (the value in a file)
// Erases a leaked value from every copy under .loom/ and records the
// erasure in the chain (src/ledger/erase.ts). The value is never taken from
// the command line (other users see it in ps) and never printed.
// Exit 0 erased, 1 nothing to erase, 2 a bad request.
import { readFileSync } from 'node:fs';
import { erase, EraseError, type EraseSelector } from '../../ledger/erase';
import { FlagError, parseFlags, projectDirFrom } from '../flags';
import { fileReason } from '../../util/file-reason';
import { NotRegularError, readRegularFile } from '../../util/read-regular';

const MAX_MATCH_BYTES = 1 << 20;

function secretFrom(source: string, file: boolean): string {
  let text: string;
  try {
    // A secret is short: a match file is a regular file of at most 1 MiB (/dev/zero would be read forever).
    const read = file ? readRegularFile(source, MAX_MATCH_BYTES) : readFileSync(0, 'utf8');
    if (read === undefined) throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
    text = read;
  } catch (e) {
    if (e instanceof NotRegularError) throw new FlagError(`--match-file ${e.message}`);
    throw new FlagError(file ? `--match-file ${source}: ${fileReason(e)}` : `--match -: stdin: ${fileReason(e)}`);
  }
  // A trailing newline is the shell's, not the value's.
  return text.replace(/\r?\n$/, '');
}

export function eraseCommand(argv: string[]): number {
  const flags = parseFlags(argv, { values: ['project-dir', 'seq', 'path', 'reason', 'match', 'match-file'], booleans: ['json'] });
  const v = flags.values;
  const fail = (msg: string, code: number): number => {
    process.stderr.write(`loom erase: ${msg}\n`);
    return code;
  };
  let sel: EraseSelector;
  if (v.seq !== undefined || v.path !== undefined) {
    if (v.match !== undefined || v['match-file'] !== undefined) return fail('give either --seq with --path, or --match / --match-file, not both', 2);
    const seq = Number(v.seq);
    if (!Number.isInteger(seq) || seq < 1) return fail(`--seq: a record number (1, 2, ...), not ${JSON.stringify(v.seq ?? '')}`, 2);
    if (!v.path || !v.path.startsWith('$.')) return fail(`--path: a JSON path inside the record, such as $.tool_use.command (got ${JSON.stringify(v.path ?? '')})`, 2);
    sel = { seq, path: v.path };
  } else if (v['match-file'] !== undefined) {
    sel = { match: secretFrom(v['match-file'], true) };
  } else if (v.match !== undefined) {
    if (v.match !== '-') return fail('--match takes - (the value on stdin): a value on the command line is visible to other users in ps; or use --match-file FILE', 2);
    sel = { match: secretFrom('-', false) };
  } else return fail('say what to erase: --seq N --path $.<kind>.<field>, or --match - (value on stdin), or --match-file FILE', 2);
  if (!v.reason) return fail('--reason is required: say why the value is erased (it is recorded in the chain)', 2);
  try {
    const r = erase(projectDirFrom(flags), sel, v.reason);
    for (const w of r.warnings) process.stderr.write(`loom erase: warning: ${w}\n`);
    if (flags.booleans.has('json')) process.stdout.write(JSON.stringify(r, null, 2) + '\n');
    else {
      for (const e of r.erased) process.stdout.write(`erased seq ${e.seq}: ${e.paths.join(', ')}\n`);
      process.stdout.write(`recorded as erasure record${r.erasureSeqs.length > 1 ? 's' : ''} seq ${r.erasureSeqs.join(', ')}\n`);
    }
    return 0;
  } catch (e) {
    if (e instanceof EraseError) return fail(e.message, e.code === 'usage' ? 2 : 1);
    throw e;
  }
}
