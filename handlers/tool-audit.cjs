'use strict';
// Built by scripts/build.ts: runs handlers/tool-audit.js through V8's code cache (see docs/runner.md).
require('../dist/loader.js').loadBundle(require('node:path').join(__dirname, '../dist', 'handlers/tool-audit.js'), module, 'handler-tool-audit');
