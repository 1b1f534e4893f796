// Extractors and their option grammar: which options name the folder they
// unpack into, which make them write over existing files, which make them
// keep what exists, and what makes them extract at all. families/archives.ts
// reads it; docs/guard.md lists it.

export interface Extractor {
  /** Parsed by the tar option grammar (families/archives.ts parseTar). */
  tar?: boolean;
  /** How extraction is chosen: by a letter in a flag cluster (undefined: the program always extracts), or by the first operand. */
  mode?: 'letter' | 'subcommand';
  modeLetters: string;
  modeWords: string[];
  /** Options whose next word (or `=value`) is the target folder, and prefixes glued to it (`-o/home/dev`). */
  dirOptions: string[];
  dirGlued: string[];
  /** Options and cluster letters that write over existing files. */
  force: string[];
  forceLetters: string;
  /** Options and cluster letters that keep existing files. */
  keep: string[];
  keepLetters: string;
}

const none = { mode: undefined, modeLetters: '', modeWords: [] as string[], dirOptions: [] as string[], dirGlued: [] as string[], force: [] as string[], forceLetters: '', keep: [] as string[], keepLetters: '' };
const tar: Extractor = { ...none, tar: true };
const sevenZip: Extractor = { ...none, mode: 'subcommand', modeWords: ['x', 'e'], dirGlued: ['-o'], force: ['-y', '-aoa'], keep: ['-aos', '-aou', '-aot'] };

export const EXTRACTORS: Record<string, Extractor> = {
  tar,
  gtar: tar,
  bsdtar: tar,
  unzip: { ...none, dirOptions: ['-d'], dirGlued: ['-d'], force: ['-o'], forceLetters: 'o', keep: ['-n'], keepLetters: 'n' },
  '7z': sevenZip,
  '7za': sevenZip,
  '7zr': sevenZip,
  '7zz': sevenZip,
  cpio: { ...none, mode: 'letter', modeLetters: 'i', modeWords: ['--extract'], dirOptions: ['-D', '--directory'], force: ['--unconditional'], forceLetters: 'u', keep: [], keepLetters: '' },
  pax: { ...none, mode: 'letter', modeLetters: 'r', modeWords: [], keep: ['-k'], keepLetters: 'k' },
  unrar: { ...none, mode: 'subcommand', modeWords: ['x', 'e'], force: ['-o+', '-y'], keep: ['-o-'] },
};
