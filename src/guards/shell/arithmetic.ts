// Static arithmetic for $(( )) and array subscripts: integer literals and
// variables whose values are known, with + - * / % and parentheses, as bash
// computes them (64-bit, division toward zero). Anything else (assignment
// operators, comparisons, a variable only known at run time, division by
// zero) is left to run time: the caller keeps the word dynamic.

const MAX_TEXT = 256;
const MAX_NEST = 32;

export function evalArithmetic(text: string, lookup: (name: string) => string | undefined): bigint | undefined {
  if (text.length > MAX_TEXT || !/^[\s0-9A-Za-z_${}+\-*/%()]*$/.test(text)) return undefined;
  // `$x` is replaced by its text before the expression is read (so `1-$x` with x=-3 reads `1--3`); a bare `x` is
  // read as x's value.
  let unknown = false;
  const expanded = text.replace(/\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))/g, (_, a: string | undefined, b: string | undefined) => {
    const v = lookup((a ?? b)!);
    if (v === undefined || !/^\s*-?[0-9]{1,18}\s*$/.test(v)) unknown = true;
    return v ?? '';
  });
  // `++` and `--` are bash's increment and decrement, not two signs: not worked out here.
  if (unknown || /[{}$]/.test(expanded) || /\+\+|--/.test(expanded)) return undefined;
  const toks = expanded.match(/[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[+\-*/%()]|\S/g) ?? [];
  let at = 0;
  const wrap = (v: bigint) => BigInt.asIntN(64, v);
  const primary = (nest: number): bigint | undefined => {
    const t = toks[at++];
    if (t === undefined || nest > MAX_NEST) return undefined;
    if (t === '(') {
      const v = sum(nest + 1);
      return toks[at++] === ')' ? v : undefined;
    }
    if (t === '-' || t === '+') {
      const v = primary(nest + 1);
      return v === undefined ? undefined : t === '-' ? wrap(-v) : v;
    }
    // Octal and hexadecimal literals (010, 0x1f) read otherwise in bash: not worked out here.
    if (/^[0-9]+$/.test(t)) return /^0[0-9]/.test(t) ? undefined : wrap(BigInt(t));
    if (/^[A-Za-z_]\w*$/.test(t)) {
      const v = lookup(t);
      return v !== undefined && /^-?[1-9][0-9]{0,17}$|^0$/.test(v.trim()) ? BigInt(v.trim()) : undefined;
    }
    return undefined;
  };
  const product = (nest: number): bigint | undefined => {
    let v = primary(nest);
    while (v !== undefined && (toks[at] === '*' || toks[at] === '/' || toks[at] === '%')) {
      const op = toks[at++];
      const r = primary(nest);
      if (r === undefined || (op !== '*' && r === 0n)) return undefined;
      v = wrap(op === '*' ? v * r : op === '/' ? v / r : v % r);
    }
    return v;
  };
  const sum = (nest: number): bigint | undefined => {
    let v = product(nest);
    while (v !== undefined && (toks[at] === '+' || toks[at] === '-')) {
      const op = toks[at++];
      const r = product(nest);
      if (r === undefined) return undefined;
      v = wrap(op === '+' ? v + r : v - r);
    }
    return v;
  };
  if (toks.length === 0) return 0n;
  const v = sum(0);
  return at === toks.length ? v : undefined;
}
