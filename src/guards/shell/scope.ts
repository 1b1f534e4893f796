// What a subshell inherits (variables, functions, aliases): a map that reads
// through to its parent until written, so forking one for each pipeline
// stage, subshell or substitution costs O(1) instead of a copy of every
// variable set so far (a line of many assignments and many pipes was
// quadratic). Each lookup charges the layers it walks to the work meter.
import { work } from './work';

export class ScopeMap<V> extends Map<string, V> {
  /** Names deleted here that a parent still holds. */
  private gone: Set<string> | undefined;

  constructor(private readonly parent?: Map<string, V>) {
    super();
  }

  override get(k: string): V | undefined {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    let m: Map<string, V> | undefined = this;
    while (m instanceof ScopeMap) {
      work.units++;
      if (Map.prototype.has.call(m, k)) return Map.prototype.get.call(m, k) as V;
      if (m.gone?.has(k)) return undefined;
      m = m.parent;
    }
    return m?.get(k);
  }

  override has(k: string): boolean {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    let m: Map<string, V> | undefined = this;
    while (m instanceof ScopeMap) {
      work.units++;
      if (Map.prototype.has.call(m, k)) return true;
      if (m.gone?.has(k)) return false;
      m = m.parent;
    }
    return m?.has(k) ?? false;
  }

  override set(k: string, v: V): this {
    this.gone?.delete(k);
    return super.set(k, v);
  }

  /** What was written in this layer itself: names set here, and names deleted here that a parent holds. */
  ownChanges(): { set: [string, V][]; gone: string[] } {
    return { set: [...Map.prototype.entries.call(this)] as [string, V][], gone: [...(this.gone ?? [])] };
  }

  override delete(k: string): boolean {
    const had = this.has(k);
    super.delete(k);
    if (this.parent?.has(k)) (this.gone ??= new Set()).add(k);
    return had;
  }
}
