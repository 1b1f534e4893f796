// The shell commands an awk program runs: system(EXPR), `print ... | EXPR`,
// `EXPR | getline`. An awk string is built by concatenation, so EXPR is
// evaluated from the program's own tokens: string literals, ENVIRON["NAME"]
// (the shell's variable), variables assigned earlier in the program, and
// anything else (a field, a function result) as a value only known at run
// time. A command printed into a shell (`print "rm -rf ~" | "sh"`) is that
// shell's script. Text inside string literals is never taken for a call.

export interface AwkCommand {
  /** The command text for `sh -c`; run-time parts are `"$__awk_value"`. */
  code: string;
  /** When the command is a shell fed by print: the printed script. */
  script?: string;
}

interface Tok {
  k: 'str' | 'id' | 'num' | 'op' | 'field';
  v: string;
}

const RUNTIME = '"$__awk_value"';
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', '/bin/sh', '/bin/bash', '/usr/bin/sh', '/usr/bin/bash', '/bin/zsh', 'busybox sh']);

function tokenize(prog: string): Tok[] {
  const out: Tok[] = [];
  const n = Math.min(prog.length, 64 * 1024);
  let i = 0;
  while (i < n && out.length < 20000) {
    const c = prog[i];
    if (c === '"') {
      let j = i + 1;
      let v = '';
      for (; j < n && prog[j] !== '"'; j++) {
        if (prog[j] === '\\' && j + 1 < n) {
          const e = prog[++j];
          v += e === 'n' ? '\n' : e === 't' ? '\t' : e;
        } else v += prog[j];
      }
      out.push({ k: 'str', v });
      i = j + 1;
      continue;
    }
    if (c === '#') {
      while (i < n && prog[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && /^(?:|[({,;!&|~]|\n)$/.test(out.length ? (out[out.length - 1].k === 'op' ? out[out.length - 1].v : 'x') : '')) {
      // A regex literal: skipped whole.
      let j = i + 1;
      for (; j < n && prog[j] !== '/' && prog[j] !== '\n'; j++) if (prog[j] === '\\') j++;
      out.push({ k: 'op', v: 're' });
      i = j + 1;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      let j = i;
      while (j < n && /\w/.test(prog[j])) j++;
      out.push({ k: 'id', v: prog.slice(i, j) });
      i = j;
      continue;
    }
    if (/[0-9.]/.test(c)) {
      let j = i;
      while (j < n && /[0-9.eE]/.test(prog[j])) j++;
      out.push({ k: 'num', v: prog.slice(i, j) });
      i = j;
      continue;
    }
    if (c === '$') {
      out.push({ k: 'field', v: '$' });
      i++;
      continue;
    }
    if (/\s/.test(c)) {
      if (c === '\n') out.push({ k: 'op', v: ';' });
      i++;
      continue;
    }
    const two = prog.slice(i, i + 2);
    if (['==', '!=', '<=', '>=', '&&', '||', '++', '--', '+=', '-=', '*=', '/=', '>>'].includes(two)) {
      out.push({ k: 'op', v: two });
      i += 2;
      continue;
    }
    out.push({ k: 'op', v: c });
    i++;
  }
  return out;
}

/** End of an expression starting at a (stops at `;`, `}`, a top-level `,` or `)`, or `|`). */
function exprEnd(t: Tok[], a: number, stopAtPipe: boolean): number {
  let depth = 0;
  for (let j = a; j < t.length; j++) {
    const v = t[j].k === 'op' ? t[j].v : '';
    if (v === '(' || v === '[') depth++;
    else if (v === ')' || v === ']') {
      if (depth === 0) return j;
      depth--;
    } else if (depth === 0 && (v === ';' || v === '}' || v === '{' || v === ',' || (stopAtPipe && (v === '|' || v === '>' || v === '>>')))) return j;
  }
  return t.length;
}

function evalExpr(t: Tok[], a: number, b: number, vars: Map<string, string>, depth = 0): string {
  if (depth > 8) return RUNTIME;
  let out = '';
  for (let j = a; j < b; j++) {
    const x = t[j];
    if (x.k === 'str') out += x.v;
    else if (x.k === 'num') out += x.v;
    else if (x.k === 'id' && x.v === 'ENVIRON' && t[j + 1]?.v === '[' && t[j + 2]?.k === 'str' && t[j + 3]?.v === ']') {
      out += '${' + t[j + 2].v.replace(/[^A-Za-z0-9_]/g, '') + '}';
      j += 3;
    } else if (x.k === 'id' && t[j + 1]?.v === '(') {
      // A function's result: run time. Skip its arguments.
      let d = 0;
      for (j++; j < b; j++) {
        if (t[j].v === '(') d++;
        else if (t[j].v === ')' && --d === 0) break;
      }
      out += RUNTIME;
    } else if (x.k === 'id') out += vars.get(x.v) ?? RUNTIME;
    else if (x.k === 'field') {
      out += RUNTIME;
      if (t[j + 1]?.k === 'num' || t[j + 1]?.k === 'id') j++;
    } else if (x.k === 'op' && x.v === '(') {
      let d = 0;
      let e = j;
      for (; e < b; e++) {
        if (t[e].v === '(') d++;
        else if (t[e].v === ')' && --d === 0) break;
      }
      out += evalExpr(t, j + 1, e, vars, depth + 1);
      j = e;
    }
    // other operators (+, -, ...) make a number: ignored for the text
  }
  return out;
}

export function awkCommands(prog: string, preset?: Map<string, string>): AwkCommand[] {
  const t = tokenize(prog);
  // -v NAME=VALUE: known values (a value holding quotes or $ is run-time text for the shell).
  const vars = new Map<string, string>([...(preset ?? [])].map(([k, v]) => [k, /[$`"'\\]/.test(v) ? RUNTIME : v]));
  const out: AwkCommand[] = [];
  for (let i = 0; i < t.length && out.length < 20; i++) {
    const x = t[i];
    // NAME = EXPR (not ==): the value is known from here on.
    if (x.k === 'id' && t[i + 1]?.k === 'op' && t[i + 1].v === '=' && t[i - 1]?.v !== '$') {
      const e = exprEnd(t, i + 2, false);
      vars.set(x.v, evalExpr(t, i + 2, e, vars));
      continue;
    }
    if (x.k === 'id' && x.v === 'system' && t[i + 1]?.v === '(') {
      const e = exprEnd(t, i + 2, false);
      out.push({ code: evalExpr(t, i + 2, e, vars) });
      i = e;
      continue;
    }
    if (x.k === 'id' && (x.v === 'print' || x.v === 'printf')) {
      // The printed items, comma separated, up to `|`.
      const items: string[] = [];
      let e = i + 1;
      if (t[e]?.v === '(') e++;
      for (;;) {
        const f = exprEnd(t, e, true);
        items.push(evalExpr(t, e, f, vars));
        if (t[f]?.v !== ',') {
          e = t[f]?.v === ')' && t[f + 1]?.v === '|' ? f + 1 : f;
          break;
        }
        e = f + 1;
      }
      if (t[e]?.v === '|') {
        const ce = exprEnd(t, e + 1, false);
        const cmd = evalExpr(t, e + 1, ce, vars);
        let printed: string;
        if (x.v === 'printf') {
          let n = 1;
          printed = (items[0] ?? '').replace(/%[-+ #0-9.]*[a-zA-Z%]/g, (m) => (m === '%%' ? '%' : (items[n++] ?? RUNTIME)));
        } else printed = items.join(' ') + '\n';
        out.push(SHELLS.has(cmd.trim()) ? { code: cmd, script: printed } : { code: cmd });
        i = ce;
      }
      continue;
    }
    if (x.k === 'op' && x.v === '|' && t[i + 1]?.k === 'id' && t[i + 1].v === 'getline') {
      // EXPR | getline: the expression just before the bar.
      let a = i - 1;
      let d = 0;
      for (; a >= 0; a--) {
        const v = t[a].k === 'op' ? t[a].v : '';
        if (v === ')') d++;
        else if (v === '(') {
          if (d === 0) break;
          d--;
        } else if (d === 0 && (v === ';' || v === '{' || v === '}' || v === '=' || v === ',')) break;
      }
      out.push({ code: evalExpr(t, a + 1, i, vars) });
    }
  }
  return out;
}
