// The journal's exclusive lock, shared by command hooks (one process each)
// and `loom serve` (its writer and upkeep threads). Node has no flock, so
// every step is one atomic name operation:
//   acquire  link(<my owner file>, journal.lock): fails with EEXIST while held;
//            the file names the owner: pid, process start time, pid namespace;
//   release  unlink(journal.lock);
//   break    only when the owner process is gone (pid not alive, or alive
//            with another start time: the pid was reused), and only under the
//            break mutex, after reading the lock again (see acquireJournalLock);
//            a lock that names no owner at all (garbage, empty, a bare pid: no
//            writer ever writes one, each links a complete owner file) is set
//            aside as journal.lock.aside-<time> at once, under the same mutex.
// Owners in another pid namespace (a container sharing the folder) cannot be
// seen from here: such a lock is judged dead only when it is also older than
// FOREIGN_STALE_MS (no writer holds the lock that long: an append takes well
// under a millisecond, a fold seconds). A lock whose owner can be seen is
// never broken by age. A release removes the lock only while it is still its own.
import { closeSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, readlinkSync, renameSync, rmdirSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { newId } from '../util/ids';
import { LedgerError } from './errors';

export const LOCK_NAME = 'journal.lock';
const BREAK_NAME = 'journal.lock.break';
/** How long a writer waits for the lock before it gives up (a hook then blocks with the reason). */
// Below the hook timeout loom installs (30 s): a hook that waited longer would be cancelled by the harness, which
// then runs the call with no decision and no record. A blocking event gives up with a block before that.
export const DEFAULT_LOCK_WAIT_MS = 20_000;
/** LOOM_LOCK_WAIT_MS is held to this (larger values, including ones setTimeout cannot hold, wait this long). */
export const MAX_LOCK_WAIT_MS = 25_000;

interface Self {
  pid: number;
  start: string;
  ns: string;
}

let self: Self | undefined;

/** Field 22 of /proc/<pid>/stat (clock ticks since boot), or '' where there is no /proc. */
export function processStart(pid: number | 'self'): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? '';
  } catch {
    return '';
  }
}

function pidNamespace(): string {
  try {
    return /\[(\d+)\]/.exec(readlinkSync('/proc/self/ns/pid'))?.[1] ?? '0';
  } catch {
    return '0';
  }
}

function me(): Self {
  // A forked child has another pid: recompute when it changed.
  if (!self || self.pid !== process.pid) self = { pid: process.pid, start: processStart('self') || '0', ns: pidNamespace() };
  return self;
}

const OWNER_RE = /^owner-(\d+)-(\d+)-(\d+)-([A-Za-z0-9_-]+)$/;

function ownerName(s: Self, token: string): string {
  return `owner-${s.pid}-${s.start}-${s.ns}-${token}`;
}

/** A lock held this long by an owner in another pid namespace is stuck: 6 times the longest any writer waits for it. */
export const FOREIGN_STALE_MS = 120_000;

/** How long ago the lock file at `lock` was made (its owner file's time), or -1. */
function lockAge(lock: string): number {
  try {
    return Date.now() - statSync(lock).mtimeMs;
  } catch {
    return -1;
  }
}

/**
 * True when the process named by an owner file is certainly gone; an owner in another pid namespace (which cannot
 * be looked up from here) when the lock at `lock` is older than FOREIGN_STALE_MS.
 */
export function ownerIsDead(name: string, lock?: string): boolean {
  const m = OWNER_RE.exec(name);
  if (!m) return false;
  const s = me();
  if (m[3] !== s.ns) return lock !== undefined && lockAge(lock) > FOREIGN_STALE_MS;
  const pid = Number(m[1]);
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
  // Alive: the same process only if it started when the owner did.
  const start = processStart(pid);
  return m[2] !== '0' && start !== '' && start !== m[2];
}

const sleepCell = new Int32Array(new SharedArrayBuffer(4));
function sleep(ms: number): void {
  Atomics.wait(sleepCell, 0, 0, ms);
}

export interface JournalLock {
  release(): void;
}

function code(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException).code;
}

/** Errors that mean "someone holds it" or "it changed under us": try again. */
function contended(e: unknown): boolean {
  const c = code(e);
  return c === 'ENOTEMPTY' || c === 'EEXIST' || c === 'EBUSY' || c === 'ENOTDIR';
}

function removeDir(dir: string, owner: string): void {
  try {
    unlinkSync(join(dir, owner));
  } catch {
    // already gone
  }
  try {
    rmdirSync(dir);
  } catch {
    // not empty (an acquirer took it) or gone
  }
}

/**
 * The break mutex: a directory whose one member names its owner. Taking it is
 * rename(<my prepared dir>, name), which succeeds only while the name is
 * absent or an empty directory; a dead owner's file is moved out (one mover
 * wins: the name is unique) and the directory removed (rmdir removes only an
 * empty one), so even this mutex is broken safely. Directory removal is slow
 * on some file systems (a discard per freed block), which is why only lock
 * breaking, never a normal append, goes through it.
 */
function takeBreakMutex(dir: string, s: Self, token: string, deadline: number): (() => void) | undefined {
  const owner = ownerName(s, token);
  const name = join(dir, BREAK_NAME);
  const prepared = join(dir, `${BREAK_NAME}.${s.pid}-${s.start}-${s.ns}-${token}.tmp`);
  try {
    mkdirSync(prepared, { mode: 0o700 });
    closeSync(openSync(join(prepared, owner), 'wx', 0o600));
  } catch {
    removeDir(prepared, owner);
    return undefined;
  }
  let pause = 0.5;
  for (;;) {
    try {
      renameSync(prepared, name);
      return () => removeDir(name, owner);
    } catch (e) {
      if (!contended(e)) break;
    }
    let members: string[] = [];
    try {
      members = readdirSync(name);
    } catch {
      members = [];
    }
    const dead = members.filter((n) => n.startsWith('owner-') && ownerIsDead(n));
    for (const d of dead) {
      try {
        const grave = join(dir, `${BREAK_NAME}.broken-${token}`);
        renameSync(join(name, d), grave);
        unlinkSync(grave);
      } catch {
        // another waiter broke it first
      }
    }
    if (dead.length) {
      try {
        rmdirSync(name);
      } catch {
        // an acquirer already renamed its directory over the empty one
      }
      continue;
    }
    if (performance.now() >= deadline) break;
    sleep(pause * (0.5 + Math.random()));
    pause = Math.min(pause * 2, 8);
  }
  removeDir(prepared, owner);
  return undefined;
}

function readOwner(lock: string): string | undefined {
  try {
    return readFileSync(lock, 'latin1');
  } catch {
    return undefined;
  }
}

/**
 * Takes the journal lock in `dir`, waiting up to `waitMs`: link(<my owner
 * file>, journal.lock) succeeds only while the name is absent. Release is
 * unlink. A lock whose owner process is gone is removed under the break
 * mutex, after reading it again there: under the mutex only its (dead) owner
 * could have removed it, so it is still the dead one when it is unlinked.
 * Throws LedgerError('locked') past the deadline.
 */
export function acquireJournalLock(dir: string, waitMs = DEFAULT_LOCK_WAIT_MS): JournalLock {
  const s = me();
  const token = newId(12);
  const owner = ownerName(s, token);
  const lock = join(dir, LOCK_NAME);
  const prepared = join(dir, `${LOCK_NAME}.${s.pid}-${s.start}-${s.ns}-${token}.tmp`);
  try {
    const fd = openSync(prepared, 'wx', 0o600);
    try {
      writeSync(fd, owner);
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    rmSafe(prepared);
    const c = code(e);
    throw new LedgerError(`${lock}: cannot prepare the journal lock (${c === 'ENOSPC' ? 'disk full' : c ?? (e as Error).message})`, c === 'ENOSPC' || c === 'EDQUOT' ? 'full' : c === 'EACCES' || c === 'EROFS' || c === 'EPERM' ? 'readonly' : 'io');
  }
  const deadline = performance.now() + waitMs;
  let pause = 0.25;
  let holder: string | undefined;
  for (;;) {
    try {
      linkSync(prepared, lock);
      rmSafe(prepared);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          // Still ours: a writer stopped past FOREIGN_STALE_MS and broken meanwhile must not remove its successor's lock.
          if (readOwner(lock) === owner) rmSafe(lock);
        },
      };
    } catch (e) {
      if (code(e) !== 'EEXIST') {
        rmSafe(prepared);
        throw new LedgerError(`${lock}: cannot take the journal lock (${code(e) ?? (e as Error).message})`, code(e) === 'ENOSPC' ? 'full' : 'io');
      }
    }
    holder = readOwner(lock);
    if (holder !== undefined && (ownerIsDead(holder, lock) || !OWNER_RE.test(holder))) {
      // A dead owner's lock is removed; one that names no owner at all (garbage, empty, a bare pid)
      // was never written by a writer (each links a complete owner file) and is set aside as evidence.
      const release = takeBreakMutex(dir, s, token, deadline);
      if (release) {
        try {
          if (readOwner(lock) === holder) {
            if (OWNER_RE.test(holder)) rmSafe(lock);
            else setAside(lock);
          }
        } finally {
          release();
        }
        continue;
      }
    }
    if (performance.now() >= deadline) {
      rmSafe(prepared);
      const pid = holder ? OWNER_RE.exec(holder)?.[1] : undefined;
      throw new LedgerError(`${lock}: the journal stayed locked${pid ? ` by pid ${pid}` : ''} for more than ${waitMs} ms`, 'locked');
    }
    // Backoff with jitter, capped low: an append holds the lock for well under a millisecond.
    sleep(pause * (0.5 + Math.random()));
    pause = Math.min(pause * 2, 4);
  }
}

/** Renames a lock that names no owner to journal.lock.aside-<time> (kept for whoever investigates; loom doctor lists it). */
function setAside(lock: string): void {
  try {
    renameSync(lock, `${lock}.aside-${new Date().toISOString().replace(/[:.]/g, '-')}-${newId(6)}`);
  } catch {
    // another waiter moved it first
  }
}

export interface LockState {
  /** Present and held by a live process (or one in another pid namespace). */
  held: boolean;
  /** Why the lock is stuck (no parseable owner, a dead owner), or undefined. */
  stuck?: string;
  /** journal.lock.aside-* files: locks set aside because they named no owner. */
  asides: string[];
}

/** What a reader (loom doctor) sees of the journal lock in `dir`, without taking it. */
export function inspectJournalLock(dir: string): LockState {
  const lock = join(dir, LOCK_NAME);
  let asides: string[] = [];
  try {
    asides = readdirSync(dir).filter((n) => n.startsWith(`${LOCK_NAME}.aside-`));
  } catch {
    asides = [];
  }
  const holder = readOwner(lock);
  if (holder === undefined) return { held: false, asides };
  const m = OWNER_RE.exec(holder);
  if (!m) return { held: true, stuck: `${lock} names no owner (${JSON.stringify(holder.slice(0, 40))}); the next writer sets it aside`, asides };
  if (m[3] !== me().ns) {
    const age = lockAge(lock);
    if (age > FOREIGN_STALE_MS) return { held: true, stuck: `${lock} has been held for ${Math.round(age / 1000)} s by pid ${m[1]} of another pid namespace (no writer holds it that long); the next writer breaks it`, asides };
    return { held: true, asides };
  }
  if (ownerIsDead(holder)) return { held: true, stuck: `${lock} is held by pid ${m[1]}, which is gone; the next writer breaks it`, asides };
  return { held: true, asides };
}

function rmSafe(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}

/** Removes what dead writers left: prepared lock folders, half-written compactions (fold's housekeeping). */
export function sweepLockLeftovers(dir: string): number {
  let n = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    const t = /^(?:journal\.log|chain\.json)\.(\d+)-[A-Za-z0-9_-]+\.tmp$/.exec(name);
    if (t) {
      // A compaction or description write that died half-way.
      let alive = true;
      try {
        process.kill(Number(t[1]), 0);
      } catch (e) {
        alive = (e as NodeJS.ErrnoException).code !== 'ESRCH';
      }
      if (!alive) {
        try {
          unlinkSync(join(dir, name));
          n++;
        } catch {
          // gone meanwhile
        }
      }
      continue;
    }
    const m = /^journal\.lock(?:\.break)?\.(\d+)-(\d+)-(\d+)-([A-Za-z0-9_-]+)\.tmp$/.exec(name);
    if (!m) continue;
    if (!ownerIsDead(`owner-${m[1]}-${m[2]}-${m[3]}-${m[4]}`)) continue;
    const d = join(dir, name);
    try {
      if (name.startsWith(BREAK_NAME)) {
        for (const f of readdirSync(d)) unlinkSync(join(d, f));
        rmdirSync(d);
      } else unlinkSync(d);
      n++;
    } catch {
      // gone meanwhile
    }
  }
  return n;
}
