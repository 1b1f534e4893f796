// User patterns: globs (`**/*.pem`, `release/*`) or, written as /.../,
// regular expressions that cannot backtrack catastrophically. A regex with
// a quantified group that itself contains a quantifier or an alternation,
// or with a backreference, is refused when the policy loads.
export interface PathPattern {
  source: string;
  test(value: string): boolean;
}

const MAX_PATTERN = 500;
/** Unbounded repetitions (`*`, `+`, `{n,}`) a user regex may hold. */
const MAX_UNBOUNDED = 2;

export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') {
      if (glob[i + 1] === '*') {
        // `**/` matches any depth including none
        if (glob[i + 2] === '/') {
          re += '(?:[^/]*/)*';
          i += 2;
        } else {
          re += '.*';
          i++;
        }
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** Rejects regex shapes known to backtrack exponentially: (a+)+, (a|aa)*, (.*)*, backreferences. */
export function assertLinearRegex(source: string): void {
  if (/\\[1-9]|\\k</.test(source)) throw new Error(`regex ${source} uses a backreference`);
  const stack: { quantified: boolean; alternation: boolean }[] = [];
  // Unbounded repetitions in sequence (`a*a*a*`, `.*.*.*=$`, `\w*\w*\w*$`) backtrack polynomially, n^k for k of them:
  // two are tolerable on the 4 KiB a pattern reads, three are not.
  let unbounded = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '[') {
      while (i < source.length && source[i] !== ']') i += source[i] === '\\' ? 2 : 1;
      continue;
    }
    if ((c === '*' || c === '+' || (c === '{' && /^\{\d*,\}/.test(source.slice(i)))) && source[i - 1] !== '(' && ++unbounded > MAX_UNBOUNDED)
      throw new Error(`regex ${source} repeats without bound more than ${MAX_UNBOUNDED} times (polynomial backtracking); bound them ({0,64}) or join them`);
    if (c === '(') stack.push({ quantified: false, alternation: false });
    else if (c === '|' && stack.length) stack[stack.length - 1].alternation = true;
    else if ('*+?{'.includes(c) && stack.length && source[i - 1] !== '(') stack[stack.length - 1].quantified = true;
    else if (c === ')') {
      const g = stack.pop();
      const next = source[i + 1] ?? '';
      const outerQuantified = next === '*' || next === '+' || next === '{';
      if (g && outerQuantified && (g.quantified || g.alternation)) throw new Error(`regex ${source} nests quantifiers (catastrophic backtracking)`);
      if (g && stack.length && (g.quantified || outerQuantified)) stack[stack.length - 1].quantified = true;
    }
  }
}

export function compilePattern(p: string): PathPattern {
  if (p.length > MAX_PATTERN) throw new Error(`pattern longer than ${MAX_PATTERN} characters`);
  const m = /^\/(.*)\/([imsu]*)$/.exec(p);
  if (m) {
    assertLinearRegex(m[1]);
    let re: RegExp;
    try {
      re = new RegExp(m[1], m[2]);
    } catch (e) {
      throw new Error(`invalid regex ${p}: ${(e as Error).message}`);
    }
    return { source: p, test: (v) => re.test(v.slice(0, 4096)) };
  }
  const re = globToRegExp(p);
  return { source: p, test: (v) => re.test(v) };
}
