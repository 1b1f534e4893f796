// Writing a key taken from JSON onto a plain object: "__proto__" must become
// an own data property, as JSON.parse and a spread make it, not a call to the
// prototype setter (which would drop the member from what is recorded and
// hand the object an attacker-chosen prototype).
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
