// Flag parsing for loom's commands, on node:util.parseArgs (built in):
// --name value, --name=value, boolean switches; an unknown flag or a
// missing value is one line that names it.
import { parseArgs } from 'node:util';
import { enclosingProject } from '../runner/project-dir';
import { currentFolder } from '../util/current-folder';
import { distance } from './help';

export class FlagError extends Error {}

export interface FlagSpec {
  values?: string[];
  booleans?: string[];
  /** Positional arguments the command reads itself (and checks); any other is refused, never silently ignored. */
  positionals?: 'own';
}

export interface ParsedFlags {
  values: Record<string, string>;
  booleans: Set<string>;
  positional: string[];
}

export function parseFlags(argv: string[], spec: FlagSpec): ParsedFlags {
  const options: Record<string, { type: 'string' | 'boolean' }> = {};
  for (const v of spec.values ?? []) options[v] = { type: 'string' };
  for (const b of spec.booleans ?? []) options[b] = { type: 'boolean' };
  // `--limit -3` is a value, not a flag: parseArgs calls it ambiguous, so join it as `--limit=-3`.
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--') && !a.includes('=') && options[a.slice(2)]?.type === 'string' && i + 1 < argv.length && argv[i + 1].startsWith('-')) args.push(`${a}=${argv[++i]}`);
    else args.push(a);
  }
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    const msg = (e as Error).message;
    const unknown = /Unknown option '([^']+)'/.exec(msg);
    if (unknown) {
      // A typo gets the nearest option this command takes, as a typo'd command gets the nearest command.
      const typed = unknown[1].replace(/^-+/, '').split('=')[0].slice(0, 64);
      let near: string | undefined;
      let best = Infinity;
      for (const o of Object.keys(options)) {
        const d = distance(typed, o);
        if (d < best) [near, best] = [o, d];
      }
      throw new FlagError(`unknown option ${unknown[1].slice(0, 80)}${near && best <= Math.max(1, Math.floor(typed.length / 3)) ? `; did you mean --${near}?` : ''}`);
    }
    const needs = /Option '(?:-\w, )?(--[\w-]+)(?: <value>)?' argument missing/.exec(msg);
    if (needs) throw new FlagError(`${needs[1]} needs a value`);
    const noValue = /Option '(--[\w-]+)' does not take an argument/.exec(msg);
    if (noValue) throw new FlagError(`${noValue[1]} takes no value`);
    throw new FlagError(msg.split('\n')[0]);
  }
  const values: Record<string, string> = {};
  const booleans = new Set<string>();
  for (const [k, v] of Object.entries(parsed.values)) {
    if (typeof v === 'string') {
      if (v === '') throw new FlagError(`--${k} needs a value`);
      values[k] = v;
    } else if (v === true) booleans.add(k);
    else if (v === false) throw new FlagError(`--${k} takes no value`);
  }
  // `loom verify ledger.db` or `loom report html` reads as if it did something with the word; refused instead.
  if (spec.positionals !== 'own' && parsed.positionals.length) throw new FlagError(`unexpected argument ${JSON.stringify(parsed.positionals[0].slice(0, 80))}: this command takes only options (see --help)`);
  return { values, booleans, positional: parsed.positionals };
}

export function projectDirFrom(flags: ParsedFlags, env: NodeJS.ProcessEnv = process.env): string {
  // Run from a subfolder, the CLI reads the project the hooks record to (enclosingProject: the nearest `.loom/`, else `.git`).
  return flags.values['project-dir'] ?? (env.LOOM_PROJECT_DIR || env.CLAUDE_PROJECT_DIR || enclosingProject(currentFolder(), env));
}
