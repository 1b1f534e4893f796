// JSON-pointer (ajv's instancePath) to the `$.a[0].b` form people read.
export function jsonPointerToPath(pointer: string): string {
  if (!pointer) return '$';
  let out = '$';
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(part)) out += `[${part}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(part)) out += `.${part}`;
    else out += `[${JSON.stringify(part)}]`;
  }
  return out;
}
