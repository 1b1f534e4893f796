// loom validate [--strict] [--json] [--project-dir D]: exit 0 clean, 1 problems.
import { join, resolve } from 'node:path';
import { validateConfigs } from '../../validate/validate';
import { parseFlags, projectDirFrom } from '../flags';
import { tone } from '../output';

export function validateCommand(argv: string[]): number {
  const flags = parseFlags(argv, { values: ['project-dir'], booleans: ['strict', 'json'] });
  const r = validateConfigs(resolve(projectDirFrom(flags)), join(__dirname, '..'));
  const strict = flags.booleans.has('strict');
  const problems = r.diagnostics.filter((d) => d.severity === 'error' || strict).length;
  if (flags.booleans.has('json')) {
    process.stdout.write(JSON.stringify({ ok: problems === 0, ...r }, null, 2) + '\n');
    return problems ? 1 : 0;
  }
  const lines: string[] = [];
  for (const f of r.files) lines.push(`${f.found ? 'found  ' : 'absent '} ${f.dialect.padEnd(8)} ${f.file}`);
  lines.push('');
  for (const h of r.harnesses) lines.push(`${h.harness}: loom hooks ${tone(h.loomWired ? 'wired' : 'NOT wired')} in ${h.file}${h.disableAllHooks ? ' (disableAllHooks: true, every hook is off)' : ''}`);
  if (r.disableAllHooks) lines.push('disableAllHooks is true in the most specific file: no hook runs');
  lines.push('');
  for (const d of r.diagnostics) lines.push(`[${tone(d.severity)}] ${d.file}: ${d.location.path}: ${d.message}`);
  lines.push(problems ? `${problems} problem(s)` : `no problems (${r.diagnostics.length} warning(s))`);
  process.stdout.write(lines.join('\n') + '\n');
  return problems ? 1 : 0;
}
