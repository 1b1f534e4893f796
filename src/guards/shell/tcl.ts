// Tcl's words, for expect scripts and tclsh code: `"..."` with backslash
// escapes, `{...}` literal, `[...]` a command substitution only known at run
// time (\u0000), `;` and newlines end a command, `#` starts a comment.
const MAX_TEXT = 64 * 1024;

export function tclWords(src: string): string[][] {
  const cmds: string[][] = [];
  let words: string[] = [];
  let i = 0;
  const n = Math.min(src.length, MAX_TEXT);
  const end = () => {
    if (words.length) cmds.push(words);
    words = [];
  };
  while (i < n && cmds.length < 200) {
    const c = src[i];
    if (c === '\n' || c === ';') {
      end();
      i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    if (c === '#' && words.length === 0) {
      while (i < n && src[i] !== '\n') i++;
      continue;
    }
    let w = '';
    if (c === '{') {
      let d = 0;
      const s = i;
      for (; i < n; i++) {
        if (src[i] === '\\') i++;
        else if (src[i] === '{') d++;
        else if (src[i] === '}' && --d === 0) break;
      }
      w = src.slice(s + 1, i);
      i++;
    } else if (c === '"') {
      i++;
      for (; i < n && src[i] !== '"'; i++) {
        if (src[i] === '\\' && i + 1 < n) {
          const e = src[++i];
          w += e === 'n' ? '\n' : e === 'r' ? '\r' : e === 't' ? '\t' : e;
        } else if (src[i] === '[') {
          w += '\u0000';
          let d = 0;
          for (; i < n; i++) {
            if (src[i] === '[') d++;
            else if (src[i] === ']' && --d === 0) break;
          }
        } else w += src[i];
      }
      i++;
    } else {
      for (; i < n && !/[\s;]/.test(src[i]); i++) {
        if (src[i] === '\\' && i + 1 < n) w += src[++i];
        else if (src[i] === '[') {
          w += '\u0000';
          let d = 0;
          for (; i < n; i++) {
            if (src[i] === '[') d++;
            else if (src[i] === ']' && --d === 0) break;
          }
        } else w += src[i];
      }
    }
    words.push(w);
  }
  end();
  return cmds;
}

/**
 * A script's commands with its variables substituted where they are known: those it sets with a literal
 * (`set d /`), in order, and the environment's (`$env(HOME)`, `$::env(HOME)`). Any other `$` is left as it is:
 * a word that still holds one is only known at run time.
 */
export function tclCommandsOf(src: string, env: Readonly<Record<string, string>>): string[][] {
  const vars = new Map<string, string>();
  const subst = (w: string): string =>
    w.includes('$')
      ? w.replace(/\$(?:::)?env\(([A-Za-z_]\w*)\)|\$\{(?:::)?env\(([A-Za-z_]\w*)\)\}|\$\{([A-Za-z_]\w*)\}|\$([A-Za-z_]\w*)(?!\()/g, (m, e1: string | undefined, e2: string | undefined, a: string | undefined, b: string | undefined) => {
          const e = e1 ?? e2;
          return (e !== undefined ? (Object.hasOwn(env, e) ? env[e] : undefined) : vars.get((a ?? b)!)) ?? m;
        })
      : w;
  const out: string[][] = [];
  for (const raw of tclWords(src)) {
    const words = raw.map(subst);
    if (words[0] === 'set' && words.length === 3 && /^[A-Za-z_]\w*$/.test(words[1])) {
      if (/[$\u0000]/.test(words[2])) vars.delete(words[1]);
      else vars.set(words[1], words[2]);
    }
    out.push(words);
  }
  return out;
}
