// Writing a key taken from JSON onto a plain object: "__proto__" must become
// an own data property, as JSON.parse and a spread make it, not a call to the
// prototype setter (which would drop the member from what is recorded and
// hand the object an attacker-chosen prototype).
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/**
 * A table lookup by a string that came from outside (a payload, a command
 * word, a file): own keys only, so "constructor", "toString" or "__proto__"
 * never find Object.prototype's members.
 */
export function ownValue<V>(table: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;
}
