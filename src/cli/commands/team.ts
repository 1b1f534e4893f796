// loom team init [--team-url URL] [--months-back N] [--months-ahead N]
//   [--writer NAME --writer-password-file F] [--reader NAME --reader-password-file F]
// Creates the team store's schema, roles and partitions (docs/team.md).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileReason } from '../../util/file-reason';
import { redactUrl, resolveTeamConfig, TeamConfigError, type TeamConfig } from '../../team/config';
import { initStore } from '../../team/init';
import { closeQuietly, connect, classifyPgError, TeamStoreError } from '../../team/pg';
import { FlagError, parseFlags, projectDirFrom, type ParsedFlags } from '../flags';

/** The team store for a command: --team-url, LOOM_TEAM_URL, then the project's policy. */
export function teamConfigFrom(f: ParsedFlags, env: NodeJS.ProcessEnv = process.env): TeamConfig {
  const cfg = resolveTeamConfig(resolve(projectDirFrom(f, env)), env, f.values['team-url']);
  if (!cfg) throw new TeamConfigError('no team store: set LOOM_TEAM_URL=postgres://... (or team.url in .loom/policy.json, or --team-url)');
  return cfg;
}

function intFlag(v: string | undefined, name: string, dflt: number, max: number): number {
  if (v === undefined) return dflt;
  if (!/^\d{1,4}$/.test(v) || Number(v) > max) throw new FlagError(`--${name} "${v}": expected an integer 0-${max}`);
  return Number(v);
}

function password(file: string | undefined, flag: string): string {
  if (!file) throw new FlagError(`--${flag} is needed with its role name`);
  try {
    const pw = readFileSync(resolve(file), 'utf8').split('\n')[0].trim();
    if (pw.length < 12) throw new FlagError(`--${flag} ${file}: the password must be at least 12 characters`);
    return pw;
  } catch (e) {
    if (e instanceof FlagError) throw e;
    throw new FlagError(`--${flag} ${file}: ${fileReason(e)}`);
  }
}

export async function teamCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub !== 'init') throw new FlagError(sub === undefined ? 'expected a subcommand: loom team init' : `unknown subcommand "${sub.slice(0, 80)}"; expected: loom team init`);
  const f = parseFlags(rest, { values: ['team-url', 'project-dir', 'months-back', 'months-ahead', 'writer', 'writer-password-file', 'reader', 'reader-password-file'] });
  const cfg = teamConfigFrom(f);
  const logins: { name: string; role: 'writer' | 'reader'; password: string }[] = [];
  if (f.values.writer) logins.push({ name: f.values.writer, role: 'writer', password: password(f.values['writer-password-file'], 'writer-password-file') });
  if (f.values.reader) logins.push({ name: f.values.reader, role: 'reader', password: password(f.values['reader-password-file'], 'reader-password-file') });
  const client = await connect(cfg, 'loom team init');
  try {
    const r = await initStore(client, { monthsBack: intFlag(f.values['months-back'], 'months-back', 12, 600), monthsAhead: intFlag(f.values['months-ahead'], 'months-ahead', 24, 600), logins });
    process.stdout.write(`team store ready at ${redactUrl(cfg.url)}: schema loom, ${r.partitions} monthly partitions, roles ${r.roles.join(', ')}\n`);
    return 0;
  } catch (e) {
    throw classifyPgError(e, cfg);
  } finally {
    await closeQuietly(client);
  }
}

export { TeamStoreError };
