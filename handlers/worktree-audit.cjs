'use strict';
// Built by scripts/build.ts: runs handlers/worktree-audit.js through V8's code cache (see docs/runner.md).
require('../dist/loader.js').loadBundle(require('node:path').join(__dirname, '../dist', 'handlers/worktree-audit.js'), module, 'handler-worktree-audit');
