// Bash arrays as the analyzer keeps them: a variable's elements joined by
// SPLIT under `NAME[@]`, their keys under `NAME[#]` when the array is sparse
// or associative, and `NAME[%]` marking an associative one (declare -A).
// Keys are kept in the order they were first set, because bash lists an
// associative array in the order of its hash table, which depends on it:
// `"${m[@]}"` as a command runs whatever that order puts first, so the
// analyzer lists them as bash does (checked against bash 5.2 by the
// differential test).

import { evalArithmetic } from './arithmetic';

export const SPLIT = '\u0001';

export const arrayValuesOf = (name: string): string => `${name}[@]`;
export const arrayKeysOf = (name: string): string => `${name}[#]`;
export const arrayAssocOf = (name: string): string => `${name}[%]`;

/** Bash's buckets for an associative array (ASSOC_HASH_BUCKETS); it rehashes past twice as many entries, which the analyzer never keeps. */
const BUCKETS = 1024;

/** Bash's hash of a key (FNV-1, 32 bits, over the key's bytes). */
function bashHash(key: string): number {
  let h = 2166136261;
  for (const b of Buffer.from(key, 'utf8')) h = (Math.imul(h, 16777619) ^ b) >>> 0;
  return h;
}

/**
 * The positions of the elements in the order bash lists them: an indexed array by index; an associative one
 * bucket by bucket, the newest key of a bucket first.
 */
export function bashOrder(keys: readonly string[], assoc: boolean): number[] {
  const at = keys.map((_, i) => i);
  if (!assoc) return at.sort((a, b) => Number(keys[a]) - Number(keys[b]));
  const bucket = keys.map((k) => bashHash(k) & (BUCKETS - 1));
  return at.sort((a, b) => bucket[a] - bucket[b] || b - a);
}

/** The elements of a stored array in bash's order (undefined: not an array the analyzer knows). */
export function orderedElements(vars: { get(k: string): string | undefined }, name: string): { values: string[]; keys: string[] } | undefined {
  const all = vars.get(arrayValuesOf(name));
  if (all === undefined) return undefined;
  const values = all === '' ? [] : all.split(SPLIT);
  const stored = vars.get(arrayKeysOf(name));
  if (stored === undefined) return { values, keys: values.map((_, i) => String(i)) };
  const keys = stored === '' ? [] : stored.split(SPLIT);
  const order = bashOrder(keys, vars.get(arrayAssocOf(name)) === 'A');
  return { values: order.map((i) => values[i] ?? ''), keys: order.map((i) => keys[i]) };
}

/**
 * A subscript as the key it names, or undefined when only known at run time. An associative array's subscript is
 * a string (`m[k]`, `m[$k]`); an indexed array's is arithmetic: a number, or a variable holding one (`a[i]`, `a[$i]`).
 */
export function subscriptKey(sub: string, assoc: boolean, lookup: (name: string) => string | undefined): string | undefined {
  if (/^[0-9]{1,9}$/.test(sub)) return String(Number(sub));
  const ref = /^\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})$/.exec(sub) ?? (!assoc ? /^([A-Za-z_][A-Za-z0-9_]*)$/.exec(sub) : null);
  if (ref) {
    const v = lookup(ref[1] ?? ref[2]);
    if (v === undefined) return undefined;
    if (assoc) return v;
    return /^[0-9]{1,9}$/.test(v) ? String(Number(v)) : undefined;
  }
  if (assoc && /^(?:"[^"$`\\]{1,128}"|'[^']{1,128}'|[A-Za-z0-9_.:/+@-]{1,128})$/.test(sub)) return sub.replace(/^(["'])([\s\S]*)\1$/, '$2');
  // An indexed array's subscript is arithmetic (`a[i+1]`), as is a `$(( ))` in either kind.
  const arith = /^\$\(\(([\s\S]*)\)\)$/.exec(sub)?.[1] ?? (assoc ? undefined : sub);
  const v = arith === undefined ? undefined : evalArithmetic(arith, lookup);
  return v !== undefined && (assoc || v >= 0n) ? String(v) : undefined;
}
