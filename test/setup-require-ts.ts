// Source modules that load a part lazily with require() (the redaction gate loads the detectors only when a
// string may hold a secret) need require() to read TypeScript in tests, as the bundle reads its own modules.
// (tsx's CommonJS hook; its types are not reachable under this project's module resolution.)
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { register } = require('tsx/cjs/api') as { register: () => void };

register();
