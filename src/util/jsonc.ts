// JSON with comments (the starter .loom/policy.json explains itself in
// `//` and `/* */` comments) and trailing commas (uncommenting the last
// example line of a list leaves one). String-aware, linear: comments and
// those commas are replaced by spaces (newlines kept), so JSON.parse's error
// positions still point into the file as written.
export function stripJsonComments(text: string): string {
  let out = '';
  let from = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 92 /* \ */) i++;
        else if (d === 34) break;
      }
      i++;
    } else if (c === 47 /* / */ && text.charCodeAt(i + 1) === 47) {
      out += text.slice(from, i);
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? n : end;
      out += ' '.repeat(stop - i);
      i = from = stop;
    } else if (c === 47 && text.charCodeAt(i + 1) === 42 /* * */) {
      out += text.slice(from, i);
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? n : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = from = stop;
    } else i++;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** A comma before a closing `}` or `]` (blanks between) becomes a space; the text must hold no comments. */
export function dropTrailingCommas(text: string): string {
  let out: string[] | undefined;
  let comma = -1;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 92) i++;
        else if (d === 34) break;
      }
      comma = -1;
    } else if (c === 44) comma = i;
    else if ((c === 125 || c === 93) && comma >= 0) {
      out ??= text.split('');
      out[comma] = ' ';
      comma = -1;
    } else if (c !== 32 && c !== 9 && c !== 10 && c !== 13) comma = -1;
  }
  return out ? out.join('') : text;
}

/** Parses JSON with comments and trailing commas; a syntax error names its line and column. */
export function parseRelaxedJson(text: string): unknown {
  const plain = dropTrailingCommas(text.includes('/') ? stripJsonComments(text) : text);
  try {
    return JSON.parse(plain);
  } catch (e) {
    const msg = (e as Error).message;
    const at = /position (\d+)/.exec(msg);
    if (!at) throw e;
    const pos = Number(at[1]);
    const before = text.slice(0, pos);
    const line = before.split('\n').length;
    const col = pos - before.lastIndexOf('\n');
    throw new SyntaxError(`${msg.replace(/ in JSON at position \d+.*$/, '')} at line ${line}, column ${col}`);
  }
}
