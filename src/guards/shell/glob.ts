// Shell pattern matching (`*`, `?`, `[...]`, `[!...]`) of one word against a
// name, as bash's pathname expansion does it for one path component. The
// two-pointer walk keeps it O(pattern x name) with no regex.

/** Length of the bracket expression at p[i] (i at '['), or 0 when it is not one (a literal '['). */
function bracketEnd(p: string, i: number): number {
  let j = i + 1;
  if (p[j] === '!' || p[j] === '^') j++;
  if (p[j] === ']') j++;
  while (j < p.length && p[j] !== ']') j++;
  return j < p.length ? j + 1 - i : 0;
}

function inBracket(p: string, i: number, len: number, c: string): boolean {
  let j = i + 1;
  const end = i + len - 1;
  let negate = false;
  if (p[j] === '!' || p[j] === '^') {
    negate = true;
    j++;
  }
  let hit = false;
  for (let first = true; j < end; first = false) {
    if (p[j] === '[' && p[j + 1] === ':') {
      const close = p.indexOf(':]', j + 2);
      if (close > 0 && close < end) {
        const cls = p.slice(j + 2, close);
        const tests: Record<string, RegExp> = { alpha: /[A-Za-z]/, digit: /[0-9]/, alnum: /[A-Za-z0-9]/, lower: /[a-z]/, upper: /[A-Z]/, space: /\s/, punct: /[!-/:-@[-`{-~]/, xdigit: /[0-9A-Fa-f]/, word: /\w/ };
        if (tests[cls]?.test(c)) hit = true;
        j = close + 2;
        continue;
      }
    }
    const lo = p[j];
    if (p[j + 1] === '-' && j + 2 < end) {
      if (c >= lo && c <= p[j + 2]) hit = true;
      j += 3;
    } else {
      if (c === lo && (lo !== ']' || first)) hit = true;
      j++;
    }
  }
  return hit !== negate;
}

/** Does the shell pattern match the whole name? (No special meaning for '/' or a leading '.': callers pass one component.) */
export function globMatch(pattern: string, name: string): boolean {
  let p = 0;
  let n = 0;
  let starP = -1;
  let starN = 0;
  while (n < name.length) {
    const c = pattern[p];
    if (c === '*') {
      starP = ++p;
      starN = n;
      continue;
    }
    if (p < pattern.length) {
      if (c === '?') {
        p++;
        n++;
        continue;
      }
      if (c === '[') {
        const len = bracketEnd(pattern, p);
        if (len > 0) {
          if (inBracket(pattern, p, len, name[n])) {
            p += len;
            n++;
            continue;
          }
        } else if (name[n] === '[') {
          p++;
          n++;
          continue;
        }
      } else if (c === '\\' && pattern[p + 1] === name[n]) {
        p += 2;
        n++;
        continue;
      } else if (c === name[n]) {
        p++;
        n++;
        continue;
      }
    }
    if (starP < 0) return false;
    p = starP;
    n = ++starN;
  }
  while (pattern[p] === '*') p++;
  return p === pattern.length;
}

export const hasGlob = (s: string): boolean => /[*?[]/.test(s);
