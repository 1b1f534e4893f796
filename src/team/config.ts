// Where the team store is and how to log in: LOOM_TEAM_URL, else `team.url`
// in the project's .loom/policy.json. The password comes from the URL, from
// PGPASSWORD, from a file (LOOM_TEAM_PASSWORD_FILE or `team.passwordFile`),
// or from ~/.pgpass (the pg client reads it); TLS options ride in the URL
// (sslmode, sslrootcert, sslcert, sslkey) and are handed to the client as is.
// No pg here: the hook path reads this module to decide whether to spawn a
// shipper, and must not load the client.
import { stripJsonComments } from '../util/jsonc';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export class TeamConfigError extends Error {}

export interface TeamSettings {
  url?: string;
  passwordFile?: string;
  otlpEndpoint?: string;
  shipOnStop?: boolean;
}

export interface TeamConfig {
  url: string;
  password?: string;
  /** Where the URL came from, for messages. */
  source: 'LOOM_TEAM_URL' | '--team-url' | 'policy team.url';
  otlpEndpoint?: string;
  shipOnStop: boolean;
}

const MAX_POLICY_BYTES = 1024 * 1024;

/** The `team` object of .loom/policy.json, or {} (the policy loader validates the file; this reads one member). */
export function teamSettings(projectDir: string): TeamSettings {
  const file = join(projectDir, '.loom', 'policy.json');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  if (text.length > MAX_POLICY_BYTES) throw new TeamConfigError(`${file}: larger than 1 MiB`);
  let raw: unknown;
  try {
    // The same file as the policy, so comments are allowed here too (the starter policy has them).
    raw = JSON.parse(text.includes('/') ? stripJsonComments(text) : text);
  } catch (e) {
    throw new TeamConfigError(`${file}: $: invalid JSON: ${(e as Error).message}`);
  }
  const team = (raw as { team?: unknown } | null)?.team;
  if (team === undefined) return {};
  if (!team || typeof team !== 'object' || Array.isArray(team)) throw new TeamConfigError(`${file}: $.team: must be an object`);
  const t = team as Record<string, unknown>;
  for (const k of ['url', 'passwordFile', 'otlpEndpoint'] as const) {
    if (t[k] !== undefined && typeof t[k] !== 'string') throw new TeamConfigError(`${file}: $.team.${k}: must be a string`);
  }
  if (t.shipOnStop !== undefined && typeof t.shipOnStop !== 'boolean') throw new TeamConfigError(`${file}: $.team.shipOnStop: must be a boolean`);
  return t as TeamSettings;
}

/** Cheap: is a team store configured at all (hook path: no URL parsing, no pg)? */
export function teamConfigured(projectDir: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.LOOM_TEAM_URL) return true;
  try {
    const s = teamSettings(projectDir);
    return Boolean(s.url) && s.shipOnStop !== false;
  } catch {
    return false;
  }
}

export function checkTeamUrl(url: string, where: string): void {
  if (url.length > 2000) throw new TeamConfigError(`${where}: longer than 2000 characters`);
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new TeamConfigError(`${where}: not a URL (expected postgres://user@host:5432/database)`);
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') throw new TeamConfigError(`${where}: expected a postgres:// URL, got ${u.protocol}//`);
}

/** The URL without its password, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    for (const k of [...u.searchParams.keys()]) if (/pass/i.test(k)) u.searchParams.set(k, '***');
    return u.toString();
  } catch {
    return '(unparseable URL)';
  }
}

function readPasswordFile(file: string, where: string): string {
  try {
    const text = readFileSync(resolve(file), 'utf8');
    const pw = text.split('\n')[0].replace(/\r$/, '');
    if (!pw) throw new TeamConfigError(`${where} ${file}: empty`);
    return pw;
  } catch (e) {
    if (e instanceof TeamConfigError) throw e;
    throw new TeamConfigError(`${where} ${file}: ${(e as NodeJS.ErrnoException).code ?? 'unreadable'}`);
  }
}

/** The team store for a project, or undefined when none is configured. */
export function resolveTeamConfig(projectDir: string | undefined, env: NodeJS.ProcessEnv = process.env, flagUrl?: string): TeamConfig | undefined {
  const settings = projectDir ? teamSettings(projectDir) : {};
  let url: string | undefined;
  let source: TeamConfig['source'];
  if (flagUrl) {
    url = flagUrl;
    source = '--team-url';
  } else if (env.LOOM_TEAM_URL) {
    url = env.LOOM_TEAM_URL;
    source = 'LOOM_TEAM_URL';
  } else {
    url = settings.url;
    source = 'policy team.url';
  }
  if (!url) return undefined;
  checkTeamUrl(url, source);
  let password: string | undefined;
  const hasUrlPassword = Boolean(new URL(url).password);
  if (!hasUrlPassword && !env.PGPASSWORD) {
    if (env.LOOM_TEAM_PASSWORD_FILE) password = readPasswordFile(env.LOOM_TEAM_PASSWORD_FILE, 'LOOM_TEAM_PASSWORD_FILE');
    else if (settings.passwordFile) password = readPasswordFile(settings.passwordFile, 'team.passwordFile');
  }
  return { url, password, source, otlpEndpoint: env.LOOM_OTLP_ENDPOINT || settings.otlpEndpoint, shipOnStop: settings.shipOnStop !== false };
}
