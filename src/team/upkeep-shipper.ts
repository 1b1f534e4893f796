// Shipping from `loom serve`'s upkeep thread: every project the server
// appends to is shipped shortly after it moves (at most once per interval),
// and once more when the server stops. The thread is not the request path,
// so a slow or down team store never delays an answer; records wait in the
// local ledger meanwhile. pg is loaded on the first ship, only when a team
// store is configured.
import { resolveTeamConfig, type TeamConfig } from './config';
import type { PgClient } from './pg';

export const SHIP_INTERVAL_MS = 1000;

export class UpkeepShipper {
  private due = new Set<string>();
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private clients = new Map<string, PgClient>();
  private configs = new Map<string, TeamConfig | null>();
  private downUntil = 0;
  problems: string[] = [];

  constructor(
    private readonly env: NodeJS.ProcessEnv = process.env,
    private readonly intervalMs = SHIP_INTERVAL_MS,
  ) {}

  private config(projectDir: string): TeamConfig | undefined {
    if (!this.configs.has(projectDir)) {
      try {
        this.configs.set(projectDir, resolveTeamConfig(projectDir, this.env) ?? null);
      } catch (e) {
        this.problems.push((e as Error).message);
        this.configs.set(projectDir, null);
      }
    }
    return this.configs.get(projectDir) ?? undefined;
  }

  /** The project's ledger moved: ship it soon. */
  nudge(projectDir: string): void {
    if (!this.config(projectDir)) return;
    this.due.add(projectDir);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.run();
    }, Math.max(this.intervalMs, this.downUntil - Date.now()));
  }

  private async run(): Promise<void> {
    if (this.running) return this.running;
    this.running = (async () => {
      const { connect, closeQuietly, TeamStoreError } = await import('./pg');
      const { shipLedger } = await import('./ship');
      const projects = [...this.due];
      this.due.clear();
      for (const p of projects) {
        const cfg = this.config(p)!;
        try {
          let client = this.clients.get(cfg.url);
          if (!client) {
            client = await connect(cfg, 'loom serve upkeep');
            this.clients.set(cfg.url, client);
          }
          await shipLedger(client, p);
        } catch (e) {
          await closeQuietly(this.clients.get(cfg.url));
          this.clients.delete(cfg.url);
          this.due.add(p); // try again later: nothing is lost, the records are local
          this.downUntil = Date.now() + (e instanceof TeamStoreError && e.code === 'unreachable' ? 10_000 : 30_000);
          if (this.problems.length < 100) this.problems.push((e as Error).message);
        }
      }
    })().finally(() => {
      this.running = undefined;
      if (this.due.size) this.nudge([...this.due][0]);
    });
    return this.running;
  }

  /** Last ship of every project seen, bounded in time; closes the connections. */
  async finish(projectDirs: string[], timeoutMs = 5000): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    for (const p of projectDirs) if (this.config(p)) this.due.add(p);
    this.downUntil = 0;
    if (this.due.size) await Promise.race([this.run(), new Promise((r) => setTimeout(r, timeoutMs).unref())]);
    const { closeQuietly } = await import('./pg');
    for (const c of this.clients.values()) await closeQuietly(c);
    this.clients.clear();
  }
}
