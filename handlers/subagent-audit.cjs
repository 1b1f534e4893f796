'use strict';
// Built by scripts/build.ts: runs handlers/subagent-audit.js through V8's code cache (see docs/runner.md).
require('../dist/loader.js').loadBundle(require('node:path').join(__dirname, '../dist', 'handlers/subagent-audit.js'), module, 'handler-subagent-audit');
