'use strict';
// Built by scripts/build.ts: runs handlers/pre-tool-guard.js through V8's code cache (see docs/runner.md).
require('../dist/loader.js').loadBundle(require('node:path').join(__dirname, '../dist', 'handlers/pre-tool-guard.js'), module, 'handler-pre-tool-guard');
