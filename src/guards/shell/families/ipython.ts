// IPython syntax (ipython -c, stdin, a notebook's code cells): `!cmd`,
// `!!cmd`, `x = !cmd`, `%system` / `%sx` / `%sc`, the alias magics (`%rm`,
// and `rm -rf ~` itself while automagic is on), `%pip`, cell magics that
// hand the body to a shell or another interpreter (`%%bash`, `%%script sh`,
// `%%perl`), the autocall escapes (`/f a`, `,f a b`, `;f a b`) and the
// get_ipython() API. A cell is split into the Python it is once those are
// taken out and the shell (or other) code they run; the caller analyses each
// part as its language. The grammar is data (tables/ipython.ts); this is a
// line-by-line transform with bounded work.
import { interpreterOf, isShell, type Language } from '../tables/programs';
import {
  AUTOMAGIC_PROGRAMS, CELL_MAGIC_LANGUAGES, DATA_CELL_MAGICS, IPYTHON_SHELL_CALLS, KERNEL_LANGUAGES, PROGRAM_LINE_MAGICS, PYTHON_LINE_MAGICS, SCRIPT_CELL_MAGICS, SHELL_LINE_MAGICS,
} from '../tables/ipython';
import { own } from './args';

export interface CodePart {
  lang: 'sh' | Language;
  code: string;
  how: string;
}

const MAX_LINES = 4000;
const MAX_CELLS = 64;

/** Python text of a line whose IPython part was taken out (an assignment keeps its name). */
const placeholder = (indent: string, assign: string) => indent + (assign ? assign + ' None' : 'pass');

/** `{expr}` in a shell escape is a Python value IPython puts there (`!rm -rf {d}`): a word only known at run time. */
const pythonFields = (cmd: string): string => (cmd.includes('{') ? cmd.replace(/\{(?!\{)[^{}\n]{1,200}\}/g, '"$__ipython_value"') : cmd);

/** The parts of one IPython cell: its Python, and the code its escapes run. */
export function ipythonParts(cell: string): CodePart[] {
  const lines = cell.split('\n').slice(0, MAX_LINES);
  const first = lines.findIndex((l) => l.trim() !== '');
  const magic = first < 0 ? null : /^\s*%%(\S+)[ \t]*(.*)$/.exec(lines[first]);
  if (magic) {
    const name = magic[1];
    const body = lines.slice(first + 1).join('\n');
    if (DATA_CELL_MAGICS.includes(name)) return [];
    let lang = own(CELL_MAGIC_LANGUAGES, name);
    if (SCRIPT_CELL_MAGICS.includes(name)) {
      const prog = (magic[2].split(/\s+/).find((w) => !w.startsWith('-')) ?? '').replace(/^.*\//, '');
      lang = own(CELL_MAGIC_LANGUAGES, prog) ?? (isShell(prog) ? 'sh' : interpreterOf(prog)?.lang);
      if (!lang) return [{ lang: 'sh', code: '"$__loom_runtime"', how: `%%script ${prog}` }];
    }
    if (lang) return [{ lang, code: body, how: `%%${name}` }];
    // %%time, %%timeit, %%capture ...: the body is the cell.
    return ipythonParts(body);
  }
  const out: CodePart[] = [];
  const python: string[] = [];
  for (const line of lines) {
    const indent = /^[ \t]*/.exec(line)![0];
    let rest = line.slice(indent.length);
    const assigned = /^[A-Za-z_]\w*(?:[ \t]*,[ \t]*[A-Za-z_]\w*){0,8}[ \t]*=(?!=)[ \t]*(?=[!%])/.exec(rest);
    const assign = assigned ? assigned[0].replace(/[ \t]*$/, '') : '';
    if (assigned) rest = rest.slice(assigned[0].length);
    if (rest.startsWith('!')) {
      out.push({ lang: 'sh', code: pythonFields(rest.replace(/^!!?/, '')), how: rest.startsWith('!!') ? '!!' : '!' });
      python.push(placeholder(indent, assign));
      continue;
    }
    const m = /^%(\w+)[ \t]*(.*)$/.exec(rest);
    if (m) {
      const [, name, args] = m;
      if (SHELL_LINE_MAGICS.includes(name)) out.push({ lang: 'sh', code: pythonFields(name === 'sc' ? args.replace(/^(?:-[lv][ \t]+)*\w+[ \t]*=[ \t]*/, '') : args), how: `%${name}` });
      else if (PROGRAM_LINE_MAGICS.includes(name)) out.push({ lang: 'sh', code: pythonFields(`${name} ${args}`), how: `%${name}` });
      else if (PYTHON_LINE_MAGICS.includes(name)) {
        // %timeit -n 1 -r 1 EXPR: the options go, the statement runs.
        python.push(indent + args.replace(/^(?:-[A-Za-z]+(?:[ \t]*\d+)?[ \t]+)*/, ''));
        continue;
      }
      python.push(placeholder(indent, assign));
      continue;
    }
    // The default aliases run without `%` (automagic): `rm -rf ~` is not Python but `rm - x` or `rm = 1` is.
    const auto = /^(\w+)[ \t]+(?![=(\[.,:)]|[-+*/%<>|&^]=|[-+*/%<>|&^][ \t])(.+)$/.exec(rest);
    if (auto && AUTOMAGIC_PROGRAMS.includes(auto[1])) {
      out.push({ lang: 'sh', code: pythonFields(rest), how: `automagic ${auto[1]}` });
      python.push(placeholder(indent, assign));
      continue;
    }
    // Autocall escapes: /f a, b -> f(a, b); ,f a b -> f("a", "b"); ;f a b -> f("a b").
    const call = /^([/,;])([A-Za-z_][\w.]*)[ \t]+(.*)$/.exec(rest);
    if (call) {
      const [, how, fn, args] = call;
      const quoted = how === '/' ? args : how === ',' ? args.split(/[ \t]+/).map((a) => JSON.stringify(a)).join(', ') : JSON.stringify(args);
      python.push(`${indent}${assign}${fn}(${quoted})`);
      continue;
    }
    // obj? / obj?? ask for help.
    python.push(/^[\w.]+\?\??[ \t]*$/.test(rest) ? placeholder(indent, assign) : line);
  }
  let code = python.join('\n');
  if (code.includes('get_ipython')) {
    // ip = get_ipython(); ip.system(...): the name is the shell object.
    const names = [...code.matchAll(/\b([A-Za-z_]\w*)[ \t]*=[ \t]*(?:IPython\.)?get_ipython\(\s*\)/g)].slice(0, 8).map((x) => x[1]);
    for (const n of new Set(names)) code = code.replace(new RegExp(`\\b${n}(?=[ \\t]*\\.[ \\t]*(?:system|getoutput|system_raw|system_piped|run_line_magic|run_cell_magic|magic)\\b)`, 'g'), 'get_ipython()');
    for (const [re, to] of IPYTHON_SHELL_CALLS) code = code.replace(re, to);
  }
  out.unshift({ lang: 'python', code, how: 'ipython' });
  return out;
}

/** The code cells of a notebook (nbformat 4 JSON), each with the analysis its kernel's language gets. */
export function notebookCells(text: string): { lang: 'ipython' | 'sh' | Language; code: string }[] {
  let nb: { cells?: { cell_type?: string; source?: unknown }[]; metadata?: { kernelspec?: { language?: string; name?: string }; language_info?: { name?: string } } };
  try {
    nb = JSON.parse(text);
  } catch {
    return [];
  }
  if (!nb || typeof nb !== 'object' || !Array.isArray(nb.cells)) return [];
  const kernel = String(nb.metadata?.kernelspec?.language ?? nb.metadata?.language_info?.name ?? nb.metadata?.kernelspec?.name ?? 'python').toLowerCase();
  const lang = own(KERNEL_LANGUAGES, kernel) ?? (/^python/.test(kernel) ? 'ipython' : undefined);
  if (!lang) return [];
  const out: { lang: 'ipython' | 'sh' | Language; code: string }[] = [];
  for (const c of nb.cells.slice(0, MAX_CELLS)) {
    if (!c || c.cell_type !== 'code') continue;
    const src = Array.isArray(c.source) ? c.source.filter((x) => typeof x === 'string').join('') : typeof c.source === 'string' ? c.source : '';
    if (src.trim()) out.push({ lang, code: src });
  }
  return out;
}
