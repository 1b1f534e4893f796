'use strict';
// Built by scripts/build.ts: runs handlers/file-changed.js through V8's code cache (see docs/runner.md).
require('../dist/loader.js').loadBundle(require('node:path').join(__dirname, '../dist', 'handlers/file-changed.js'), module, 'handler-file-changed');
