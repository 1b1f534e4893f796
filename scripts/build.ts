// Build: compile the registry schema to standalone validators (so no ajv
// runs at hook time), then bundle the runner, the CLI and the handlers into
// plain CommonJS that starts fast. better-sqlite3 stays external (native).
import Ajv from 'ajv';
import standaloneCode from 'ajv/dist/standalone';
import { build } from 'esbuild';
import { mkdirSync, readFileSync, writeFileSync, readdirSync, chmodSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..');

function generateValidators(): void {
  const schema = JSON.parse(readFileSync(join(root, 'config/hooks.schema.json'), 'utf8'));
  const defs = schema.definitions;
  const [objectForm, arrayForm] = schema.hooks.oneOf;
  const ajv = new Ajv({ code: { source: true }, allErrors: true, strict: false });
  const policySchema = JSON.parse(readFileSync(join(root, 'config/policy.schema.json'), 'utf8'));
  ajv.addSchema({ ...objectForm, definitions: defs }, 'registry-object');
  ajv.addSchema({ ...arrayForm, definitions: defs }, 'registry-array');
  ajv.addSchema(policySchema, 'policy');
  const code = standaloneCode(ajv, {
    validateObjectRegistry: 'registry-object',
    validateArrayRegistry: 'registry-array',
    validatePolicy: 'policy',
  });
  mkdirSync(join(root, 'src/generated'), { recursive: true });
  writeFileSync(join(root, 'src/generated/validators.js'), code);
  writeFileSync(
    join(root, 'src/generated/validators.d.ts'),
    [
      'export interface AjvError { instancePath: string; message?: string; keyword: string; params: Record<string, unknown> }',
      'type V = ((data: unknown) => boolean) & { errors?: AjvError[] | null };',
      'export const validateObjectRegistry: V;',
      'export const validateArrayRegistry: V;',
      'export const validatePolicy: V;',
      '',
    ].join('\n'),
  );
}

async function bundle(): Promise<void> {
  const common = {
    bundle: true,
    platform: 'node' as const,
    target: 'node20',
    format: 'cjs' as const,
    external: ['better-sqlite3'],
    legalComments: 'none' as const,
    minifySyntax: true,
    logLevel: 'warning' as const,
  };
  await build({ ...common, entryPoints: [join(root, 'src/runner/entry.ts')], outfile: join(root, 'hooks/run-hook.js') });
  await build({ ...common, entryPoints: [join(root, 'src/cli/main.ts')], outfile: join(root, 'dist/cli.js') });
  const handlerDir = join(root, 'src/handlers');
  let entries: string[] = [];
  try {
    entries = readdirSync(handlerDir).filter((f) => f.endsWith('.ts'));
  } catch {
    entries = [];
  }
  for (const f of entries) {
    await build({ ...common, entryPoints: [join(handlerDir, f)], outfile: join(root, 'handlers', f.replace(/\.ts$/, '.cjs')) });
  }
  chmodSync(join(root, 'bin/loom.js'), 0o755);
}

generateValidators();
bundle().catch((e) => {
  console.error(e);
  process.exit(1);
});
