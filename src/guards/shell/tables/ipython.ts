// IPython's own syntax around Python (ipython -c, a notebook cell): the
// spellings that hand text to a shell or to another interpreter. Read by
// families/ipython.ts, which turns a cell into Python, shell and other code
// for the usual analyses. Data only.
import type { Language } from './programs';

/** Programs that read IPython syntax (not plain Python) from -c, a script or stdin. */
export const IPYTHON_PROGRAMS = /^(?:ipython[23]?|jupyter-console)(?:-?\d+(?:\.\d+)*)?$/;

/** Line magics whose rest of the line is a shell command (`%system rm -rf ~`, `%sx ls`, `x = %sx cmd`). */
export const SHELL_LINE_MAGICS = ['system', 'sx', 'sc'];
/**
 * Line magics (and IPython's default aliases, which also run without the `%` while automagic is
 * on: `rm -rf ~` at the prompt) that run the program of their name with the rest of the line.
 */
export const PROGRAM_LINE_MAGICS = ['rm', 'rmdir', 'mv', 'cp', 'cat', 'mkdir', 'ls', 'pip', 'conda', 'mamba', 'micromamba', 'uv'];
/** Of those, the ones IPython runs without `%` (its default aliases on POSIX, and %pip's automagic). */
export const AUTOMAGIC_PROGRAMS = ['rm', 'rmdir', 'mv', 'cp', 'cat', 'mkdir', 'ls'];
/** Line magics whose rest of the line is Python run as it stands (`%time os.system(...)`). */
export const PYTHON_LINE_MAGICS = ['time', 'timeit', 'prun', 'debug', 'capture'];

/** Cell magics whose body is code of another language (`%%bash`, `%%script sh`, `%%perl`): 'sh' is a shell script. */
export const CELL_MAGIC_LANGUAGES: Record<string, 'sh' | Language> = {
  bash: 'sh', sh: 'sh', zsh: 'sh', system: 'sh', sx: 'sh', '!': 'sh', ksh: 'sh', dash: 'sh', fish: 'sh',
  perl: 'perl', ruby: 'ruby', python: 'python', python2: 'python', python3: 'python', pypy: 'python', node: 'node', js: 'node', javascript: 'node', powershell: 'powershell', pwsh: 'powershell',
};
/** `%%script PROGRAM` runs the body with PROGRAM: its language by the program's name (the table above, then the interpreters). */
export const SCRIPT_CELL_MAGICS = ['script'];
/** Cell magics whose body is data, not code run here (written to a file, rendered). */
export const DATA_CELL_MAGICS = ['writefile', 'file', 'html', 'markdown', 'latex', 'svg', 'md'];

/**
 * IPython's Python API for the same escapes, rewritten to os.system(...) so the Python analysis
 * judges the command text (literal, f-string, variable): get_ipython().system / getoutput /
 * system_raw / system_piped, run_line_magic('system', ...), run_cell_magic('bash', '', ...), magic('sx ...').
 */
export const IPYTHON_SHELL_CALLS: [RegExp, string][] = [
  [/\b(?:IPython\.)?get_ipython\(\s*\)\s*\.\s*(?:system|getoutput|system_raw|system_piped)\s*\(/g, '__import__("os").system('],
  [/\b(?:IPython\.)?get_ipython\(\s*\)\s*\.\s*run_line_magic\(\s*(['"])(?:system|sx|sc)\1\s*,/g, '__import__("os").system('],
  [/\b(?:IPython\.)?get_ipython\(\s*\)\s*\.\s*run_cell_magic\(\s*(['"])(?:bash|sh|zsh|system|sx)\1\s*,\s*(['"])[^'"\n]{0,200}\2\s*,/g, '__import__("os").system('],
  [/\b(?:IPython\.)?get_ipython\(\s*\)\s*\.\s*magic\(\s*(['"])(?:system|sx|sc|!)\s*/g, '__import__("os").system($1'],
];

/**
 * Programs that execute the code cells of a notebook they are given: `sub` the subcommand that does
 * (jupyter nbconvert / execute), `needs` an option without which they only convert (nbconvert --execute).
 */
export const NOTEBOOK_RUNNERS: Record<string, { sub?: Record<string, RegExp | null>; needs?: RegExp }> = {
  jupyter: { sub: { nbconvert: /^--(?:execute$|ExecutePreprocessor\.enabled=(?:True|true|1)$)/, execute: null } },
  'jupyter-nbconvert': { needs: /^--(?:execute$|ExecutePreprocessor\.enabled=(?:True|true|1)$)/ },
  'jupyter-execute': {},
  papermill: {},
  jupytext: { needs: /^--execute$/ },
  pytest: { needs: /^--nbmake$/ },
};
/** A notebook's kernel language: the analysis its code cells get. */
export const KERNEL_LANGUAGES: Record<string, 'ipython' | 'sh' | Language> = { python: 'ipython', python3: 'ipython', bash: 'sh', sh: 'sh', zsh: 'sh', ruby: 'ruby', perl: 'perl', javascript: 'node', typescript: 'node', r: 'r', julia: 'julia', powershell: 'powershell' };
