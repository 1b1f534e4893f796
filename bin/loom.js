#!/usr/bin/env node
'use strict';
// Thin launcher: the CLI is bundled by `npm run build` (run by `npm ci`).
require('../dist/cli.js');
