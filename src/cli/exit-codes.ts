// What the CLI's exit statuses mean, as data: main.ts sets them by name,
// `loom --help` prints the table, the README repeats it. One meaning per
// number across every command, so a CI step can tell "the ledger is
// tampered" (1) from "loom was called wrong" (2) without reading stderr.
// Hook calls (`loom run`) answer in their harness's own codes instead.

export const EXIT = { ok: 0, no: 1, cannot: 2 } as const;

export const EXIT_CODES: [code: number, meaning: string][] = [
  [EXIT.ok, 'done: intact, written, nothing found that --fail-on names'],
  [EXIT.no, 'done, and the answer is no: tampered, --fail-on triggered, doctor found a problem, nothing to erase or recover'],
  [EXIT.cannot, 'could not do it: a usage error (unknown command or option, a bad value), a path or file it cannot use, no ledger or a corrupt one, a server that did not start'],
];
