// The plugin loom writes for OpenCode (.opencode/plugins/loom.js) and its
// fork Kilo Code (.kilo/plugins/loom.js). Both run plugins under Bun, which
// cannot load better-sqlite3, so the plugin spawns the Node runner for each
// event with a Claude-shaped payload and reads Claude-style answers. A
// thrown error is the block: in tool.execute.before the model gets the
// message as the tool result; in chat.message the run is aborted before the
// model is called. Records carry the harness's name and OpenCode's sessionID.
// Like every command target (./hook-command.ts), the project's plugin finds
// the runner under node_modules from the project folder up, and blocks with
// the install hint when it is missing.
import { INSTALL_HINT, RUNNER_FROM_PROJECT, type RunnerLocation } from './hook-command';

export type PluginHarness = 'opencode' | 'kilo';

export const PLUGIN_MARK = '// loom: generated';

export function opencodePluginSource(where: RunnerLocation, harness: PluginHarness = 'opencode'): string {
  const find =
    where.kind === 'absolute'
      ? `const RUNNER = ${JSON.stringify(where.runner)};
function runner() {
  if (!existsSync(RUNNER)) throw new Error("loom: " + RUNNER + " is missing; reinstall loom. Blocked until then.");
  return RUNNER;
}`
      : `function runner(directory) {
  for (let d = directory; ; d = dirname(d)) {
    const r = join(d, ${JSON.stringify(RUNNER_FROM_PROJECT)});
    if (existsSync(r)) return r;
    if (dirname(d) === d) throw new Error(${JSON.stringify(`loom: ${INSTALL_HINT}`)});
  }
}`;
  return `${PLUGIN_MARK} by \`loom install --harness ${harness}\`; remove with \`loom uninstall --harness ${harness}\`.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";

${find}
const HARNESS = ${JSON.stringify(harness)};

function run(event, payload, directory) {
  const r = spawnSync("node", [runner(directory), "--event", event, "--harness", HARNESS, "--project-dir", directory], {
    input: JSON.stringify({ hook_event_name: event, cwd: directory, ...payload }),
    encoding: "utf8",
    timeout: 30000,
    maxBuffer: 4 * 1024 * 1024,
    // The hook makes no TLS call; extra CA certificates only slow Node's start.
    env: { ...process.env, NODE_EXTRA_CA_CERTS: "" },
  });
  if (r.error) throw new Error("loom: cannot run the hook runner (" + r.error.message + "); blocked");
  return r;
}

// exit 2: blocked with the reason on stderr; another non-zero exit: the hook failed, which blocks too.
function decide(r, ask) {
  if (r.status === 2) throw new Error((r.stderr || "").trim() || "loom: blocked");
  if (r.status !== 0) throw new Error("loom: hook failed (exit " + r.status + "): " + (r.stderr || "").trim());
  let answer = {};
  try {
    answer = r.stdout ? JSON.parse(r.stdout) : {};
  } catch {
    throw new Error("loom: unreadable hook answer; blocked");
  }
  const out = answer.hookSpecificOutput || {};
  if (answer.continue === false) throw new Error("loom: " + (answer.stopReason || "stopped"));
  if (answer.decision === "block") throw new Error(answer.reason || "loom: blocked");
  if (out.permissionDecision === "deny") throw new Error(out.permissionDecisionReason || "loom: denied");
  if (out.permissionDecision === "ask") throw new Error("loom: needs approval: " + (out.permissionDecisionReason || ""));
  return out;
}

function promptText(output) {
  const parts = (output && output.parts) || [];
  return parts.filter((p) => p && p.type === "text" && typeof p.text === "string").map((p) => p.text).join("\\n");
}

function sessionOf(event) {
  const p = event.properties || {};
  return p.sessionID || (p.info && p.info.id) || "";
}

const EVENTS = { "session.created": "SessionStart", "session.deleted": "SessionEnd", "session.idle": "Stop", "session.compacted": "PostCompact", "file.edited": "FileChanged" };

export const LoomPlugin = async ({ directory }) => ({
  "chat.message": async (input, output) => {
    const r = run("UserPromptSubmit", { session_id: input.sessionID, prompt: promptText(output), message_id: input.messageID }, directory);
    decide(r);
  },
  "tool.execute.before": async (input, output) => {
    const r = run("PreToolUse", { session_id: input.sessionID, tool_name: input.tool, tool_input: output.args, tool_use_id: input.callID }, directory);
    const out = decide(r);
    if (out.updatedInput) Object.assign(output.args, out.updatedInput);
  },
  "tool.execute.after": async (input, output) => {
    run("PostToolUse", { session_id: input.sessionID, tool_name: input.tool, tool_input: input.args || (output && output.metadata && output.metadata.args) || {}, tool_use_id: input.callID, tool_response: { output: output && output.output, title: output && output.title } }, directory);
  },
  event: async ({ event }) => {
    const name = Object.prototype.hasOwnProperty.call(EVENTS, event.type) ? EVENTS[event.type] : undefined;
    if (!name) return;
    const p = event.properties || {};
    run(name, { session_id: sessionOf(event), ...(name === "FileChanged" ? { file_path: p.file } : {}) }, directory);
  },
});
`;
}
