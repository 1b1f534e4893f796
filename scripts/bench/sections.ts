// Each section is imported only when it runs: `npm run bench -- redaction`
// must not need what another section loads (pg, a built CLI).
export interface Section {
  name: string;
  run: () => Promise<string[]>;
}

export const sections: Section[] = [
  { name: 'hotpath', run: async () => (await import('./hotpath')).benchHotpath() },
  { name: 'runner', run: async () => (await import('./runner')).benchRunner() },
  { name: 'ledger', run: async () => (await import('./ledger')).benchLedger() },
  { name: 'fastpath', run: async () => (await import('./fastpath')).benchFastpath() },
  { name: 'journal', run: async () => (await import('./journal')).benchJournal() },
  { name: 'guard', run: async () => (await import('./guard')).benchGuard() },
  { name: 'serve', run: async () => (await import('./serve')).benchServe() },
  { name: 'report', run: async () => (await import('./report')).benchReport() },
  { name: 'team', run: async () => (await import('./team')).benchTeam() },
  { name: 'redaction', run: async () => (await import('./redaction')).benchRedaction() },
  { name: 'crypto', run: async () => (await import('./crypto')).benchCrypto() },
];
