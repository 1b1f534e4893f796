// Commands a PowerShell line defines for itself: aliases (Set-Alias / sal /
// New-Alias / nal, Set-Item alias:x, New-Item alias:x) and functions
// (`function x { ... }`, `function x($p) { ... }`, `filter x { ... }`,
// Set-Item function:x { ... }, ${function:x} = { ... }). A later statement
// calling the new name runs what it stands for: the alias's command with the
// same arguments, or the function's body with its parameters, $args and
// @args bound to them. Text transforms; windows.ts judges the result.
import { WIN_ALIAS_SETTERS, WIN_FUNCTION_KEYWORDS, WIN_ITEM_SETTERS } from '../tables/windows';
import { asWord, expandParam, unquote } from './windows-text';

/** What a name defined on the line stands for. */
export type PsDefinition = { alias: string } | { body: string; params: string[] };

const MAX_DEFINITIONS = 32;
const ALIAS_PARAMS = ['-name', '-value', '-description', '-option', '-scope', '-force', '-passthru', '-whatif', '-confirm'];
const ITEM_PARAMS = ['-path', '-literalpath', '-value', '-name', '-itemtype', '-force', '-passthru', '-credential', '-filter', '-include', '-exclude', '-whatif', '-confirm'];
const FLAGS = ['-force', '-passthru', '-whatif', '-confirm'];

/** The names of a param(...) block or a function's (...) list: `$p`, `[string]$p = 'x'`, `[Parameter()]$p`. */
function paramNames(list: string): string[] {
  return [...list.matchAll(/\$([A-Za-z_]\w*)/g)].map((m) => m[1].toLowerCase()).slice(0, 16);
}

function functionDef(body: string, list = ''): PsDefinition {
  const param = /^\s*param\s*\(([^()]*(?:\([^()]*\)[^()]*){0,8})\)/i.exec(body);
  return { body: param ? body.slice(param[0].length) : body, params: paramNames(list + (param ? ',' + param[1] : '')) };
}

/** Named and positional values of a definer's words (`-Name x -Value y`, `x y`, `-Name:x`). */
function namedValues(words: string[], params: string[]): { named: Map<string, string>; positional: string[] } {
  const named = new Map<string, string>();
  const positional: string[] = [];
  for (let k = 1; k < words.length; k++) {
    const w = words[k];
    if (/^-[a-z]/i.test(w)) {
      const p = expandParam(w, params);
      if (FLAGS.includes(p)) continue;
      const colon = w.indexOf(':');
      named.set(p, colon > 0 ? w.slice(colon + 1) : words[++k] ?? '');
      continue;
    }
    positional.push(w);
  }
  return { named, positional };
}

/** The name a statement defines and what it stands for, or undefined. `stmt` is the statement's text, `words` its words. */
export function psDefinition(stmt: string, words: string[], name: string): { name: string; def: PsDefinition } | undefined {
  if (WIN_FUNCTION_KEYWORDS.includes(name)) {
    const m = /^\s*(?:function|filter|workflow)\s+(?:(?:global|script|local|private):)?([^\s({]+)\s*(?:\(([^()]*(?:\([^()]*\)[^()]*){0,8})\))?\s*\{([\s\S]*)\}\s*$/i.exec(stmt);
    return m ? { name: m[1].toLowerCase(), def: functionDef(m[3], m[2] ?? '') } : undefined;
  }
  // ${function:x} = { ... }
  const assigned = /^\s*\$\{function:([^}]+)\}\s*=\s*\{([\s\S]*)\}\s*$/i.exec(stmt);
  if (assigned) return { name: assigned[1].toLowerCase(), def: functionDef(assigned[2]) };
  if (WIN_ALIAS_SETTERS.includes(name)) {
    const { named, positional } = namedValues(words, ALIAS_PARAMS);
    const alias = named.get('-name') ?? positional.shift();
    const target = named.get('-value') ?? positional.shift();
    return alias && target ? { name: alias.toLowerCase(), def: { alias: target } } : undefined;
  }
  if (WIN_ITEM_SETTERS.includes(name)) {
    const { named, positional } = namedValues(words, ITEM_PARAMS);
    let path = named.get('-path') ?? named.get('-literalpath') ?? positional.shift() ?? '';
    const child = named.get('-name');
    if (child) path = path.replace(/[\\/]*$/, '\\') + child;
    const m = /^(alias|function):\\?(.+)$/i.exec(path.trim());
    if (!m) return undefined;
    const value = named.get('-value') ?? positional.shift();
    if (value === undefined) return undefined;
    if (m[1].toLowerCase() === 'alias') return { name: m[2].toLowerCase(), def: { alias: unquote(value) } };
    // The block's text: from the statement (winWords keeps braces in one word only when unspaced).
    const block = /\{([\s\S]*)\}\s*$/.exec(stmt);
    return block ? { name: m[2].toLowerCase(), def: functionDef(block[1]) } : undefined;
  }
  return undefined;
}

/** Records a definition in the line's table (bounded). */
export function define(table: Map<string, PsDefinition>, d: { name: string; def: PsDefinition }): void {
  if (table.size >= MAX_DEFINITIONS && !table.has(d.name)) return;
  // An alias of a name already defined stands for what that name stands for (a chain of any length is one hop).
  const to = 'alias' in d.def ? table.get(d.def.alias.toLowerCase()) : undefined;
  table.set(d.name, to && to !== d.def ? to : d.def);
}

/** The text a call of an alias runs: its command with the call's arguments (`x -r -fo $HOME` -> `Remove-Item -r -fo $HOME`). */
export function aliasCall(stmt: string, target: string): string {
  const first = /^\s*(?:[&.]\s*)?(?:'[^']*'|"[^"]*"|[^\s;|&]+)/.exec(stmt);
  return target + (first ? stmt.slice(first[0].length) : '');
}

/** The body a call of a function runs, its parameters, $args[N], $args and @args replaced by the call's arguments. */
export function functionCall(def: { body: string; params: string[] }, words: string[]): string {
  const args = words.slice(1);
  const bound = new Map<string, string>();
  const rest: string[] = [];
  for (let k = 0; k < args.length; k++) {
    const named = /^-([A-Za-z_]\w*)$/.exec(args[k]);
    const p = named && def.params.find((x) => x.startsWith(named[1].toLowerCase()));
    if (p && args[k + 1] !== undefined) bound.set(p, args[++k]);
    else rest.push(args[k]);
  }
  // Positional values go to the parameters not named, in order; what is left is $args.
  for (const p of def.params) if (!bound.has(p) && rest.length) bound.set(p, rest.shift()!);
  let body = def.body;
  for (const [p, v] of bound) body = body.replace(new RegExp(`\\$\\{?${p}\\}?(?![\\w:])`, 'gi'), () => asWord(v));
  body = body.replace(/\$args\[(\d)\]/gi, (_m, n: string) => asWord(rest[Number(n)] ?? ''));
  return body.replace(/[@$]args\b/gi, () => rest.map(asWord).join(' '));
}

