'use strict';
// Built by scripts/build.ts: runs handlers/prompt-guard.js through V8's code cache (see docs/runner.md).
require('../dist/loader.js').loadBundle(require('node:path').join(__dirname, '../dist', 'handlers/prompt-guard.js'), module, 'handler-prompt-guard');
