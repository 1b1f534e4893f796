// Measures the redactor on a held-out red-team corpus (issue 12):
//   npx tsx scripts/redteam-redact.ts [DIR] [--misses]
// DIR (default /work/redteam) holds secrets.jsonl ({family,text,secret} or
// {family,text,secrets:[...]}) and lookalikes.jsonl ({family,text,keep} or
// keep:[...]); a line counts when every one of its strings is gone (kept). Prints removed % per family and the
// look-alikes removed; --misses prints each miss to find its cause. Its strings
// never go into test/: the tests carry our own generated cases.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { redactText } from '../src/ledger/redact';

interface Secret {
  family: string;
  text: string;
  secret?: string;
  secrets?: string[];
}
interface Lookalike {
  family: string;
  text: string;
  keep: string | string[];
}

/** The strings of a line, whichever spelling it uses; a line with none is an input error. */
function strings(v: unknown, where: string): string[] {
  const list = Array.isArray(v) ? v : [v];
  if (!list.length || !list.every((x) => typeof x === 'string' && x.length > 0)) throw new Error(`${where}: expected a non-empty string or list of strings`);
  return list as string[];
}

function load<T>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l, i) => {
      try {
        return JSON.parse(l) as T;
      } catch (e) {
        throw new Error(`${file}:${i + 1}: ${(e as Error).message}`);
      }
    });
}

function main(): number {
  const args = process.argv.slice(2);
  const dir = args.find((a) => !a.startsWith('--')) ?? '/work/redteam';
  const misses = args.includes('--misses');
  const sf = join(dir, 'secrets.jsonl');
  const lf = join(dir, 'lookalikes.jsonl');
  if (!existsSync(sf) || !existsSync(lf)) {
    console.error(`redteam-redact: ${dir} has no secrets.jsonl and lookalikes.jsonl`);
    return 2;
  }
  const secrets = load<Secret>(sf);
  const looks = load<Lookalike>(lf);
  const fam = new Map<string, { n: number; ok: number }>();
  const missed: string[] = [];
  for (const [i, s] of secrets.entries()) {
    const out = redactText(s.text);
    const want = strings(s.secrets ?? s.secret, `${sf}:${i + 1}`);
    const ok = want.every((w) => !out.includes(w));
    const f = fam.get(s.family) ?? { n: 0, ok: 0 };
    f.n++;
    if (ok) f.ok++;
    fam.set(s.family, f);
    if (!ok) missed.push(`MISS ${s.family}: ${JSON.stringify(s.text)}\n  secret ${JSON.stringify(want.filter((w) => out.includes(w)))}\n  got    ${JSON.stringify(out)}`);
  }
  const removed = [...fam.values()].reduce((a, f) => a + f.ok, 0);
  console.log(`secrets removed: ${removed}/${secrets.length} = ${((removed / secrets.length) * 100).toFixed(1)}% (target >= 98%)`);
  for (const [k, f] of [...fam].sort((a, b) => a[1].ok / a[1].n - b[1].ok / b[1].n)) console.log(`  ${k.padEnd(22)} ${f.ok}/${f.n}`);
  const touched = looks.filter((l, i) => {
    const out = redactText(l.text);
    return !strings(l.keep, `${lf}:${i + 1}`).every((k) => out.includes(k));
  });
  console.log(`look-alikes removed: ${touched.length}/${looks.length} (target <= 2)`);
  for (const l of touched) console.log(`  ${l.family}${misses ? ': ' + JSON.stringify(l.text) + ' -> ' + JSON.stringify(redactText(l.text)) : ''}`);
  if (misses) console.log(missed.join('\n'));
  return 0;
}

process.exitCode = main();
