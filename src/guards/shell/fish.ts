// fish code read as the POSIX shell analysis reads it. fish is not POSIX:
// blocks end with `end`, a command substitution is `(cmd)` (or `$(cmd)`),
// `and` / `or` chain commands, `function f ... end` defines one. This turns
// those forms into their bash spelling, word by word, so the same analysis
// judges them: `while true; sleep 1d &; end` is `while true; do sleep 1d & done`,
// `rm -rf (echo ~)` is `rm -rf $(echo ~)`. What it does not know it leaves as is.

const OPENERS = new Set(['while', 'for', 'if', 'function', 'begin', 'switch']);
const MAX_FISH = 64 * 1024;

/** The bash spelling of a fish script (quotes kept, one pass, bounded). */
export function fishToPosix(code: string): string {
  if (code.length > MAX_FISH) return code;
  let out = '';
  const stack: string[] = [];
  // After `while COND` / `for X in ...` the first statement end gets a `do`.
  let needDo = false;
  let atCommand = true;
  let i = 0;
  while (i < code.length) {
    const c = code[i];
    if (c === "'" || c === '"') {
      const end = code.indexOf(c, i + 1);
      const stop = end < 0 ? code.length : end + 1;
      out += code.slice(i, stop);
      i = stop;
      atCommand = false;
      continue;
    }
    if (c === '\\') {
      out += code.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (c === '#' && (i === 0 || /\s/.test(code[i - 1]))) {
      const nl = code.indexOf('\n', i);
      i = nl < 0 ? code.length : nl;
      continue;
    }
    if (c === ';' || c === '\n' || (c === '&' && code[i + 1] !== '&')) {
      // `{` and `do` already open a list: bash refuses a `;` right after them.
      if (!(c !== '&' && /(?:\{|\bdo)\s*$/.test(out))) out += c === '&' ? ' &' : c;
      if (needDo) {
        out += ' do';
        needDo = false;
      }
      i++;
      atCommand = true;
      continue;
    }
    // `(cmd)` where a word starts is a command substitution.
    if (c === '(' && (i === 0 || /[\s=]/.test(code[i - 1])) && !atCommand) {
      out += '$(';
      i++;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      let j = i;
      while (j < code.length && /[\w.-]/.test(code[j])) j++;
      const word = code.slice(i, j);
      if (atCommand) {
        if (word === 'end' && stack.length) {
          const open = stack.pop()!;
          out += open === 'while' || open === 'for' ? 'done' : open === 'if' ? 'fi' : open === 'switch' ? 'esac' : '}';
          i = j;
          atCommand = false;
          continue;
        }
        if (word === 'and' || word === 'or') {
          // `cmd; and cmd2`: drop the `;` just written and chain.
          out = out.replace(/[;\n]\s*$/, '') + (word === 'and' ? ' && ' : ' || ');
          i = j;
          continue;
        }
        if (word === 'not') {
          out += '!';
          i = j;
          continue;
        }
        if (OPENERS.has(word) && stack.length < 64) {
          stack.push(word);
          if (word === 'function') {
            // function NAME [options]; BODY; end  ->  NAME() { BODY; }
            const m = /^\s+([\w.-]+)[^;\n]*/.exec(code.slice(j));
            if (m) {
              out += `${m[1]}() {`;
              i = j + m[0].length;
              continue;
            }
          }
          if (word === 'begin') {
            out += '{';
            i = j;
            continue;
          }
          if (word === 'while' || word === 'for') needDo = true;
        }
        if (word === 'else' && stack[stack.length - 1] === 'if') {
          out += 'else';
          i = j;
          continue;
        }
      }
      out += word;
      i = j;
      atCommand = false;
      continue;
    }
    if (!/\s/.test(c)) atCommand = false;
    out += c;
    i++;
  }
  // `if COND; BODY` needs bash's `then` after the condition.
  return out.replace(/\bif ([^;\n]{0,4000})([;\n])/g, (_m, cond: string, sep: string) => `if ${cond}${sep} then`).replace(/\$argv\b/g, '"$@"');
}
