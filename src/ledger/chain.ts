// Record hashing: SHA-256 over the canonical bytes, or HMAC-SHA-256 when a
// ledger key is configured. The key never leaves this module's callers'
// memory: only a fingerprint (itself an HMAC) is stored to tell keys apart.
// The hook path hashes in JavaScript (no node:crypto load); verify uses
// node:crypto for throughput. Both give the same digests (tested).
import { hmacSha256Hex, sha256Hex } from '../util/sha256';
import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { fileReason } from '../util/file-reason';
import { NotRegularError, readRegularFile } from '../util/read-regular';

export const GENESIS_HASH = '0'.repeat(64);
export type ChainMode = 'sha256' | 'hmac-sha256';

export interface ChainKey {
  key: Buffer;
  /** HMAC(key, "loom-ledger-key-id"), first 16 hex: identifies a key without revealing it. */
  id: string;
}

export class KeyError extends Error {}

export function keyFingerprint(key: Buffer): string {
  return hmacSha256Hex(key, 'loom-ledger-key-id').slice(0, 16);
}

/** LOOM_LEDGER_KEY, or LOOM_LEDGER_KEY_FILE pointing outside the project (the agent can read the project). */
const MAX_KEY_FILE_BYTES = 64 * 1024;

export function loadChainKey(projectDir: string, env: NodeJS.ProcessEnv = process.env): ChainKey | undefined {
  let key: Buffer | undefined;
  if (env.LOOM_LEDGER_KEY) key = Buffer.from(env.LOOM_LEDGER_KEY, 'utf8');
  else if (env.LOOM_LEDGER_KEY_FILE) {
    const file = resolve(env.LOOM_LEDGER_KEY_FILE);
    let real = file;
    let realProject = projectDir;
    try {
      real = realpathSync(file);
      realProject = realpathSync(projectDir);
    } catch (e) {
      throw new KeyError(`LOOM_LEDGER_KEY_FILE ${file}: ${fileReason(e)}`);
    }
    const rel = relative(realProject, real);
    if (!rel.startsWith('..') && !isAbsolute(rel)) throw new KeyError(`LOOM_LEDGER_KEY_FILE ${file} is inside the project; keep the key where the agent cannot read it`);
    try {
      // A FIFO or a device there would block or be read forever: a key is a small regular file.
      const text = readRegularFile(real, MAX_KEY_FILE_BYTES);
      if (text === undefined) throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
      key = Buffer.from(text.trim(), 'utf8');
    } catch (e) {
      throw new KeyError(`LOOM_LEDGER_KEY_FILE ${file}: ${e instanceof NotRegularError ? e.why : fileReason(e)}`);
    }
  }
  if (!key) return undefined;
  if (key.length < 16) throw new KeyError('the ledger key must be at least 16 bytes');
  return { key, id: keyFingerprint(key) };
}

/** For a few records per process (the hook path). */
export function hashBody(body: string, key?: ChainKey): string {
  return key ? hmacSha256Hex(key.key, body) : sha256Hex(body);
}

/** For many records (verify): node:crypto, loaded on first use. */
export function bulkHasher(key?: ChainKey): (body: string) => string {
  const crypto = require('node:crypto') as typeof import('node:crypto');
  return key ? (body) => crypto.createHmac('sha256', key.key).update(body, 'utf8').digest('hex') : (body) => crypto.hash('sha256', body, 'hex');
}
