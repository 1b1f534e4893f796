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
  const policySchema = JSON.parse(readFileSync(join(root, 'config/policy.schema.json'), 'utf8'));
  const dts = 'export interface AjvError { instancePath: string; message?: string; keyword: string; params: Record<string, unknown> }\n' +
    'export type Validator = ((data: unknown) => boolean) & { errors?: AjvError[] | null };\n';
  // Registry and policy validators live in separate modules so the runner
  // bundle carries only what it uses.
  const registryAjv = new Ajv({ code: { source: true }, allErrors: true, strict: false });
  registryAjv.addSchema({ ...objectForm, definitions: defs }, 'registry-object');
  registryAjv.addSchema({ ...arrayForm, definitions: defs }, 'registry-array');
  const policyAjv = new Ajv({ code: { source: true }, allErrors: true, strict: false });
  policyAjv.addSchema(policySchema, 'policy');
  mkdirSync(join(root, 'src/generated'), { recursive: true });
  writeFileSync(join(root, 'src/generated/registry-validators.js'), standaloneCode(registryAjv, { validateObjectRegistry: 'registry-object', validateArrayRegistry: 'registry-array' }));
  writeFileSync(join(root, 'src/generated/registry-validators.d.ts'), dts + 'export const validateObjectRegistry: Validator;\nexport const validateArrayRegistry: Validator;\n');
  writeFileSync(join(root, 'src/generated/policy-validator.js'), standaloneCode(policyAjv, { validatePolicy: 'policy' }));
  writeFileSync(join(root, 'src/generated/policy-validator.d.ts'), dts + 'export const validatePolicy: Validator;\n');
}

async function bundle(): Promise<void> {
  const common = {
    bundle: true,
    platform: 'node' as const,
    target: 'node20',
    format: 'cjs' as const,
    // better-sqlite3's JavaScript is bundled too (one file to compile instead of a dozen); its native addon is loaded by path at run time.
    external: [],
    legalComments: 'none' as const,
    // Smaller files parse faster: start-up is most of a hook's cost.
    minify: true,
    keepNames: false,
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
