// loom doctor's team-store lines: reachable, schema present, and the alerts
// (forks, gaps, rollbacks) the store holds for this project's ledger.
import { redactUrl, resolveTeamConfig } from './config';
import { closeQuietly, connect, classifyPgError, type PgClient } from './pg';
import { storeHead } from './ship';
import { ensureLedgerId } from './source';

export interface TeamCheck {
  name: string;
  ok: boolean;
  detail: string;
  fix?: string;
}

export async function teamChecks(project: string, env: NodeJS.ProcessEnv = process.env): Promise<TeamCheck[]> {
  let cfg;
  try {
    cfg = resolveTeamConfig(project, env);
  } catch (e) {
    return [{ name: 'team store', ok: false, detail: (e as Error).message, fix: 'fix LOOM_TEAM_URL or team in .loom/policy.json' }];
  }
  if (!cfg) return [{ name: 'team store', ok: true, detail: 'not configured (LOOM_TEAM_URL unset): the ledger stays on this machine' }];
  const out: TeamCheck[] = [];
  let client: PgClient | undefined;
  try {
    client = await connect(cfg, 'loom doctor');
    const v = await client.query<{ value: string }>("SELECT value FROM loom.meta WHERE key = 'store_version'");
    out.push({ name: 'team store', ok: true, detail: `${redactUrl(cfg.url)} reachable, store version ${v.rows[0]?.value ?? '?'}` });
    const info = ensureLedgerId(project);
    if (info) {
      const head = await storeHead(client, info.ledgerId);
      const alerts = await client.query<{ kind: string; seq: string; detail: string }>('SELECT kind, seq, detail FROM loom.alerts WHERE ledger_id = $1 ORDER BY id', [info.ledgerId]);
      out.push({ name: 'team shipping', ok: true, detail: `ledger ${info.ledgerId}: store head seq ${head.seq}` });
      const a = alerts.rows;
      out.push({ name: 'team alerts', ok: a.length === 0, detail: a.length ? `${a.length} alert(s) for this ledger, first: ${a[0].kind.toUpperCase()} at seq ${a[0].seq}: ${a[0].detail}` : 'no fork, gap or rollback recorded for this ledger', fix: 'investigate with loom verify --team (a fork means the local chain was rewritten after shipping)' });
    }
  } catch (e) {
    const err = classifyPgError(e, cfg);
    out.push({ name: 'team store', ok: false, detail: err.message, fix: err.code === 'schema' ? 'run loom team init with an owner URL' : 'check the URL, the password (PGPASSWORD, LOOM_TEAM_PASSWORD_FILE, ~/.pgpass) and that the server is up; records wait in the local ledger meanwhile' });
  } finally {
    await closeQuietly(client);
  }
  return out;
}
