// JSON with comments (the starter .loom/policy.json explains itself in
// `//` and `/* */` comments). One pass, string-aware, linear: comments are
// replaced by spaces (newlines kept), so JSON.parse's error positions still
// point into the file as written.
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
