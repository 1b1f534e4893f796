// Errors and the head type shared by the journal (hook path, no SQLite) and the database store.
export class LedgerError extends Error {
  constructor(
    message: string,
    /** `tampered` (a finding) and `nothing` (nothing to do): answers, not failures; the CLI exits 1 for them, 2 for the others. */
    public readonly code: 'missing' | 'corrupt' | 'locked' | 'readonly' | 'full' | 'key' | 'io' | 'tampered' | 'nothing',
  ) {
    super(message);
  }
}

export interface Head {
  seq: number;
  hash: string;
  count: number;
  ts: string;
}
