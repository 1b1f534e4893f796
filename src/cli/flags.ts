// A small flag parser for loom's commands: --name value, --name=value,
// boolean switches; unknown flags are an error that names them.
export class FlagError extends Error {}

export interface FlagSpec {
  values?: string[];
  booleans?: string[];
}

export interface ParsedFlags {
  values: Record<string, string>;
  booleans: Set<string>;
  positional: string[];
}

export function parseFlags(argv: string[], spec: FlagSpec): ParsedFlags {
  const values: Record<string, string> = {};
  const booleans = new Set<string>();
  const positional: string[] = [];
  const valueNames = new Set(spec.values ?? []);
  const boolNames = new Set(spec.booleans ?? []);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
    if (boolNames.has(name) && eq < 0) {
      booleans.add(name);
    } else if (valueNames.has(name)) {
      const v = eq > 0 ? a.slice(eq + 1) : argv[++i];
      if (v === undefined || v === '') throw new FlagError(`--${name} needs a value`);
      values[name] = v;
    } else {
      throw new FlagError(`unknown option --${name}`);
    }
  }
  return { values, booleans, positional };
}

export function projectDirFrom(flags: ParsedFlags, env: NodeJS.ProcessEnv = process.env): string {
  return flags.values['project-dir'] ?? env.LOOM_PROJECT_DIR ?? env.CLAUDE_PROJECT_DIR ?? process.cwd();
}
