// An argv as shell text to analyze again (a wrapper's command, an alias, git's dashed form): its own
// module so that the families can build one without importing the analyzer.
import { work } from './work';

const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./~$…()<>-]+$/;

export function quoteArgv(argv: string[]): string {
  let out = '';
  for (const raw of argv) {
    work.units += raw.length + 1;
    // \u0000 marks what the lexer could not know statically (substitutions); most words have none.
    const a = raw.includes('\u0000') ? raw.replace(/\u0000procsub:(.)\(/g, '$1(…)').replace(/\u0000/g, '$…') : raw;
    out += (out ? ' ' : '') + (PLAIN_WORD.test(a) ? a : JSON.stringify(a));
  }
  return out;
}
