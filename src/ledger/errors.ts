// Errors and the head type shared by the journal (hook path, no SQLite) and the database store.
export class LedgerError extends Error {
  constructor(
    message: string,
    public readonly code: 'missing' | 'corrupt' | 'locked' | 'readonly' | 'full' | 'key' | 'io',
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
