'use strict';
// Built by scripts/build.ts: runs handlers/permission-audit.js through V8's code cache (see docs/runner.md).
require('../dist/loader.js').loadBundle(require('node:path').join(__dirname, '../dist', 'handlers/permission-audit.js'), module, 'handler-permission-audit');
