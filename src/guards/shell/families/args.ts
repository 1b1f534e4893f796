// Reading a command's arguments the way the program itself does: operands
// after `--`, clustered short flags, and long options abbreviated to any
// unambiguous prefix (git, rsync and PowerShell all accept `--force-w`,
// `--del`, `-Rec`).

/** Positional arguments, honouring `--`; `withArg` lists options whose value is the next word. */
export function operands(argv: string[], from = 1, withArg: readonly string[] = []): string[] {
  const out: string[] = [];
  let flags = true;
  for (let k = from; k < argv.length; k++) {
    const a = argv[k];
    if (flags && a === '--') {
      flags = false;
      continue;
    }
    if (flags && a.startsWith('-') && a.length > 1) {
      if (withArg.includes(a)) k++;
      continue;
    }
    out.push(a);
  }
  return out;
}

/** Whether any clustered short flag holds one of `letters`, or one of `longs` is given (before `--`). */
export function hasShortFlag(argv: string[], letters: string, longs: readonly string[] = []): boolean {
  for (let k = 1; k < argv.length; k++) {
    const a = argv[k];
    if (a === '--') break;
    if (longs.includes(a)) return true;
    if (a.length > 1 && a[0] === '-' && a[1] !== '-' && /^-[A-Za-z0-9]+$/.test(a)) {
      for (const l of letters) if (a.includes(l)) return true;
    }
  }
  return false;
}

/**
 * The full name of a long option given as any unambiguous prefix of one of
 * `names` (`--force-w` -> `--force-with-lease`); an exact name wins; `--no-X`
 * is matched as a prefix too. Returns the option unchanged when nothing or
 * several names match. The value after `=` is kept.
 */
export function expandLong(opt: string, names: readonly string[]): string {
  if (!opt.startsWith('--') || opt === '--') return opt;
  const eq = opt.indexOf('=');
  const key = eq < 0 ? opt : opt.slice(0, eq);
  const rest = eq < 0 ? '' : opt.slice(eq);
  if (names.includes(key)) return opt;
  let found: string | undefined;
  for (const n of names) {
    if (n.startsWith(key)) {
      if (found !== undefined) return opt;
      found = n;
    }
  }
  return found === undefined ? opt : found + rest;
}

export interface ParsedOptions {
  /** Long options by full name (value after `=`, or the next word for options that take one, or ''). */
  long: Map<string, string>;
  /** Short option letters seen (value when the letter takes one). */
  short: Map<string, string>;
  operands: string[];
}

export interface OptionGrammar {
  long: readonly string[];
  /** Long options that take the next word as their value when not given with `=`. */
  longWithArg?: readonly string[];
  /** Short letters that take a value (the rest of the cluster or the next word). */
  shortWithArg?: string;
  /** Options stop at the first operand (git subcommands do not; most GNU tools do not either). */
  stopAtOperand?: boolean;
}

/** Parses argv[from..] against a grammar: clusters split, long prefixes expanded. */
export function parseOptions(argv: readonly string[], from: number, g: OptionGrammar): ParsedOptions {
  const long = new Map<string, string>();
  const short = new Map<string, string>();
  const ops: string[] = [];
  let flags = true;
  for (let k = from; k < argv.length; k++) {
    const a = argv[k];
    if (!flags || a === '-' || !a.startsWith('-')) {
      ops.push(a);
      if (g.stopAtOperand) flags = false;
      continue;
    }
    if (a === '--') {
      flags = false;
      continue;
    }
    if (a.startsWith('--')) {
      const full = expandLong(a, g.long);
      const eq = full.indexOf('=');
      const key = eq < 0 ? full : full.slice(0, eq);
      let value = eq < 0 ? '' : full.slice(eq + 1);
      if (eq < 0 && g.longWithArg?.includes(key) && k + 1 < argv.length) value = argv[++k];
      long.set(key, value);
      continue;
    }
    for (let i = 1; i < a.length; i++) {
      const l = a[i];
      if (g.shortWithArg?.includes(l)) {
        const v = i + 1 < a.length ? a.slice(i + 1) : k + 1 < argv.length ? argv[++k] : '';
        short.set(l, v);
        break;
      }
      short.set(l, '');
    }
  }
  return { long, short, operands: ops };
}

/** A table entry by a name from the command (never an inherited member such as `constructor`). */
export function own<T>(table: Record<string, T>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;
}
