// The canonical encoding hashed into the chain: JSON with object keys sorted
// by UTF-16 code unit order at every level, no whitespace, strings and
// numbers exactly as JSON.stringify writes them, encoded as UTF-8. `undefined`
// members are dropped. JSON has no non-finite numbers, yet JSON.parse turns
// 1e999 into Infinity: such a number is stored as the string "Infinity",
// "-Infinity" or "NaN", so the record keeps what was sent instead of being
// lost (or silently becoming null, as JSON.stringify would make it).
export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) return `"${String(value)}"`;
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      // Built by concatenation: no intermediate arrays (the server encodes thousands of records a second).
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) out += (i ? ',' : '') + (value[i] === undefined ? 'null' : canonicalJson(value[i]));
        return out + ']';
      }
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj).sort();
      let out = '{';
      for (const k of keys) {
        const v = obj[k];
        if (v === undefined) continue;
        out += (out.length > 1 ? ',' : '') + JSON.stringify(k) + ':' + canonicalJson(v);
      }
      return out + '}';
    }
    default:
      throw new TypeError(`canonical JSON cannot encode a ${typeof value}`);
  }
}
