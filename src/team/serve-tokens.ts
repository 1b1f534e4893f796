// Per-client tokens for `loom serve --team-url`: a file with one
// `client-id token` per line (# comments and blank lines ignored). The
// client id names the client's ledger in the team store and becomes the
// actor of its records. A token is compared in constant time against every
// client's (digests of equal length; no early exit on a match).
import { NotRegularError, readRegularFile } from '../util/read-regular';
import { createHash, timingSafeEqual } from 'node:crypto';

export const CLIENT_ID = /^[A-Za-z0-9][A-Za-z0-9._@-]{2,47}$/;
const MIN_TOKEN = 16;

export class TokenFileError extends Error {}

export interface ClientTokens {
  /** The client id whose token this is, or undefined. */
  clientOf(token: string): string | undefined;
  size: number;
}

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

export function parseClientTokens(text: string, where: string): ClientTokens {
  const clients: { id: string; digest: Buffer }[] = [];
  const ids = new Set<string>();
  const tokens = new Set<string>();
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/\r$/, '').trim();
    if (line === '' || line.startsWith('#')) return;
    const at = `${where}:${i + 1}`;
    const parts = line.split(/\s+/);
    if (parts.length !== 2) throw new TokenFileError(`${at}: expected "client-id token" (two fields), got ${parts.length}`);
    const [id, token] = parts;
    if (!CLIENT_ID.test(id)) throw new TokenFileError(`${at}: client id "${id.slice(0, 60)}": 3-48 letters, digits, . _ @ - (starting with a letter or digit)`);
    if (token.length < MIN_TOKEN) throw new TokenFileError(`${at}: the token of ${id} must be at least ${MIN_TOKEN} characters`);
    if (ids.has(id)) throw new TokenFileError(`${at}: client id ${id} appears twice`);
    if (tokens.has(token)) throw new TokenFileError(`${at}: the token of ${id} is also another client's`);
    ids.add(id);
    tokens.add(token);
    clients.push({ id, digest: digest(token) });
  });
  if (clients.length === 0) throw new TokenFileError(`${where}: no "client-id token" line`);
  return {
    size: clients.length,
    clientOf(token: string): string | undefined {
      const d = digest(token);
      let found: string | undefined;
      // Every entry is compared: the time does not tell which (or whether one) matched.
      for (const c of clients) if (timingSafeEqual(d, c.digest) && found === undefined) found = c.id;
      return found;
    },
  };
}

export function readClientTokens(file: string): ClientTokens {
  let text: string;
  try {
    // Bounded and regular: /dev/zero or a FIFO would be read forever.
    const t = readRegularFile(file, 4 * 1024 * 1024);
    if (t === undefined) throw new TokenFileError(`${file}: ENOENT`);
    text = t;
  } catch (e) {
    if (e instanceof TokenFileError) throw e;
    throw new TokenFileError(`${file}: ${e instanceof NotRegularError ? e.why : (e as NodeJS.ErrnoException).code ?? 'unreadable'}`);
  }
  return parseClientTokens(text, file);
}
