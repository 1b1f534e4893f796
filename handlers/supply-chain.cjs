'use strict';
// Built by scripts/build.ts: runs handlers/supply-chain.js through V8's code cache (see docs/runner.md).
require('../dist/loader.js').loadBundle(require('node:path').join(__dirname, '../dist', 'handlers/supply-chain.js'), module, 'handler-supply-chain');
