'use strict';
// Built by scripts/build.ts: runs runner.js through V8's code cache (see docs/runner.md).
require('../dist/loader.js').loadBundle(require('node:path').join(__dirname, '../dist', 'runner.js'), module, 'runner');
