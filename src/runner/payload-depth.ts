// How deep a payload nests, measured without recursion (the walk itself must
// not overflow the stack on the payload it is judging). Deeper than the
// limit is refused before any copy, redaction or encoding recurses into it:
// structuredClone throws at about 3,500 levels and JSON.stringify at 5,000,
// and no harness sends anything close to the limit.
export const MAX_PAYLOAD_DEPTH = 256;

/** The JSON path (first segments) of a value nested deeper than `max`, or undefined. */
export function tooDeepAt(root: unknown, max = MAX_PAYLOAD_DEPTH): string | undefined {
  if (root === null || typeof root !== 'object') return undefined;
  const stack: { v: object; depth: number; path: string }[] = [{ v: root, depth: 1, path: '$' }];
  while (stack.length) {
    const { v, depth, path } = stack.pop()!;
    if (depth > max) return path.length > 60 ? path.slice(0, 60) + '…' : path;
    const keys = Array.isArray(v) ? null : Object.keys(v);
    const n = keys ? keys.length : (v as unknown[]).length;
    for (let i = 0; i < n; i++) {
      const child = keys ? (v as Record<string, unknown>)[keys[i]] : (v as unknown[])[i];
      if (child === null || typeof child !== 'object') continue;
      // Paths are built only while short: a 100,000-level payload must not build 100,000 strings of growing length.
      const seg = keys ? (/^[A-Za-z_$][\w$]*$/.test(keys[i]) ? '.' + keys[i] : `[${JSON.stringify(keys[i].slice(0, 40))}]`) : `[${i}]`;
      stack.push({ v: child, depth: depth + 1, path: path.length > 60 ? path : path + seg });
    }
  }
  return undefined;
}
