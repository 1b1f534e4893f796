#!/usr/bin/env bash
# Installs the real agent CLIs, pinned, into .e2e-clients/ at the project
# root (not the project's own dependencies: Claude Code alone is about 370 MB).
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p .e2e-clients
cd .e2e-clients
[ -f package.json ] || echo '{"name":"loom-e2e-clients","private":true}' > package.json
if [ -x node_modules/.bin/claude ] && [ -x node_modules/.bin/codex ] && [ -x node_modules/.bin/gemini ] \
   && node_modules/.bin/claude --version | grep -q '^2\.1\.328' && node_modules/.bin/codex --version | grep -q '0\.169\.0' && node_modules/.bin/gemini --version | grep -q '^0\.61\.0'; then
  exit 0
fi
npm install --no-audit --no-fund --save-exact @anthropic-ai/claude-code@2.1.328 @openai/codex@0.169.0 @google/gemini-cli@0.61.0
