// Prometheus text for GET /metrics: requests by route and status, decisions
// by kind, a latency histogram, in-flight requests and the ledger head.
/** What a hook request was refused for (a fixed label set: a client cannot grow it). */
export type Refusal = 'unauthenticated' | 'content-type' | 'header' | 'projects-root' | 'unknown-event' | 'payload' | 'overloaded';

const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

export class Metrics {
  private requests = new Map<string, number>();
  private decisions = new Map<string, number>();
  private refusals = new Map<Refusal, number>();
  private buckets = new Array<number>(BUCKETS.length).fill(0);
  private sum = 0;
  ledgerFailures = 0;
  private count = 0;

  request(route: string, code: number): void {
    const k = `route="${route}",code="${code}"`;
    this.requests.set(k, (this.requests.get(k) ?? 0) + 1);
  }

  decision(d: string): void {
    this.decisions.set(d, (this.decisions.get(d) ?? 0) + 1);
  }

  refused(r: Refusal): void {
    this.refusals.set(r, (this.refusals.get(r) ?? 0) + 1);
  }

  latency(seconds: number): void {
    this.sum += seconds;
    this.count++;
    for (let i = 0; i < BUCKETS.length; i++) if (seconds <= BUCKETS[i]) this.buckets[i]++;
  }

  render(inFlight: number, headSeq: number, corruptLedgers = 0): string {
    const out: string[] = [];
    out.push('# HELP loom_requests_total HTTP requests by route and status.', '# TYPE loom_requests_total counter');
    for (const [k, v] of this.requests) out.push(`loom_requests_total{${k}} ${v}`);
    out.push('# HELP loom_decisions_total Hook decisions by kind.', '# TYPE loom_decisions_total counter');
    for (const [k, v] of this.decisions) out.push(`loom_decisions_total{decision="${k}"} ${v}`);
    out.push('# HELP loom_refusals_total Hook requests refused, by what was refused (a block on events that can block, else a 4xx/503); unauthenticated ones are counted here and never recorded.', '# TYPE loom_refusals_total counter');
    for (const [k, v] of this.refusals) out.push(`loom_refusals_total{reason="${k}"} ${v}`);
    out.push('# HELP loom_request_duration_seconds Time from request to answer for hook requests.', '# TYPE loom_request_duration_seconds histogram');
    BUCKETS.forEach((b, i) => out.push(`loom_request_duration_seconds_bucket{le="${b}"} ${this.buckets[i]}`));
    out.push(`loom_request_duration_seconds_bucket{le="+Inf"} ${this.count}`, `loom_request_duration_seconds_sum ${this.sum}`, `loom_request_duration_seconds_count ${this.count}`);
    out.push('# HELP loom_in_flight_requests Hook requests being answered.', '# TYPE loom_in_flight_requests gauge', `loom_in_flight_requests ${inFlight}`);
    out.push('# HELP loom_ledger_failures_total Invocations whose records could not be written.', '# TYPE loom_ledger_failures_total counter', `loom_ledger_failures_total ${this.ledgerFailures}`);
    out.push('# HELP loom_ledger_corrupt Projects whose ledger database was found corrupt (records wait in the journal; run loom recover).', '# TYPE loom_ledger_corrupt gauge', `loom_ledger_corrupt ${corruptLedgers}`);
    out.push('# HELP loom_ledger_head_seq Sequence number of the last record appended by this server.', '# TYPE loom_ledger_head_seq gauge', `loom_ledger_head_seq ${headSeq}`);
    return out.join('\n') + '\n';
  }
}
