'use strict';
// Built by scripts/build.ts: runs handlers/lifecycle-audit.js through V8's code cache (see docs/runner.md).
require('../dist/loader.js').loadBundle(require('node:path').join(__dirname, '../dist', 'handlers/lifecycle-audit.js'), module, 'handler-lifecycle-audit');
