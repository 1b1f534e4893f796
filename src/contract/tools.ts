// What each harness's tool names mean, so guards reason about kinds of
// tools (shell, file write, patch), never about one harness's spelling.
import { ownValue } from '../util/own';

export type ToolKind = 'shell' | 'write' | 'edit' | 'patch' | 'read' | 'mcp' | 'other';

const KINDS: Record<string, ToolKind> = {
  // shell (droid: Execute; Copilot camelCase: bash / powershell)
  Bash: 'shell', bash: 'shell', shell: 'shell', Shell: 'shell', run_shell_command: 'shell', exec_command: 'shell',
  local_shell: 'shell', container_exec: 'shell', terminal: 'shell', execute_bash: 'shell', run_terminal_cmd: 'shell', PowerShell: 'shell',
  powershell: 'shell', Execute: 'shell',
  // whole-file writes (droid: Create; Copilot: create {path, file_text}; Crush: download {url, file_path})
  Write: 'write', write: 'write', write_file: 'write', create_file: 'write', NotebookEdit: 'edit', Create: 'write', create: 'write', download: 'write',
  // edits (Copilot: edit / str_replace {path, old_str, new_str}; OpenCode and Crush: multiedit)
  Edit: 'edit', edit: 'edit', MultiEdit: 'edit', replace: 'edit', edit_file: 'edit', str_replace: 'edit', str_replace_editor: 'edit', search_replace: 'edit', multiedit: 'edit',
  // patches (Codex carries the patch text in tool_input.command, OpenCode in patchText)
  apply_patch: 'patch', ApplyPatch: 'patch', patch: 'patch',
  // reads (Copilot and Crush: view; Qwen: read_many_files, grep_search; OpenCode: list)
  Read: 'read', read: 'read', read_file: 'read', Grep: 'read', Glob: 'read', grep: 'read', glob: 'read', LS: 'read', list_directory: 'read',
  view: 'read', read_many_files: 'read', grep_search: 'read', search_file_content: 'read', list: 'read', ls: 'read',
};

export function toolKind(name: unknown): ToolKind {
  if (typeof name !== 'string') return 'other';
  if (name.startsWith('mcp__') || name.startsWith('mcp_')) return 'mcp';
  return ownValue(KINDS, name) ?? 'other';
}

/** Argument names that carry the file a tool reads, writes or edits, across harnesses and MCP servers. */
export const PATH_KEYS = ['file_path', 'filePath', 'path', 'notebook_path', 'target_file', 'targetFile', 'absolute_path', 'filepath', 'filename', 'file_name', 'fileName'];

/** File paths a tool call writes or edits, from the usual argument names. */
export function targetPaths(input: Record<string, unknown> | undefined): string[] {
  if (!input) return [];
  const out: string[] = [];
  for (const k of PATH_KEYS) {
    const v = input[k];
    if (typeof v === 'string' && v) out.push(v);
  }
  const edits = input.edits;
  if (Array.isArray(edits)) for (const e of edits) if (e && typeof e === 'object' && typeof (e as { file_path?: unknown }).file_path === 'string') out.push((e as { file_path: string }).file_path);
  return [...new Set(out)];
}

/** The patch text of a patch tool call, whichever argument carries it (Codex: command; OpenCode: patchText). */
export function patchTextOf(input: Record<string, unknown> | undefined): string {
  if (!input) return '';
  for (const k of ['patchText', 'patch', 'command', 'input', 'patch_text']) if (typeof input[k] === 'string') return input[k] as string;
  return '';
}

/**
 * What a patch does to files: Codex's `*** Add/Update/Delete File:` and `*** Move to:`, unified diff headers
 * (`--- a/x` then `+++ b/x`; `+++ /dev/null` deletes, a new name moves). `named`: every path, in order.
 */
export function patchEffects(patch: string): { writes: string[]; deletes: string[]; named: string[] } {
  const writes = new Set<string>();
  const deletes = new Set<string>();
  const named = new Set<string>();
  let from: string | undefined;
  for (const line of patch.split('\n').slice(0, 20000)) {
    const codex = /^\*\*\* (Add|Update|Delete) File: (.+)$/.exec(line) ?? /^\*\*\* (Move) to: (.+)$/.exec(line);
    if (codex) {
      const f = codex[2].trim();
      (codex[1] === 'Delete' ? deletes : writes).add(f);
      named.add(f);
      continue;
    }
    // A header's path, without the a/ b/ prefix and a timestamp after a tab.
    const header = /^(\+\+\+|---) (?:[ab]\/)?(.+?)(?:\t.*)?$/.exec(line);
    if (!header) continue;
    const f = header[2].trim();
    if (f !== '/dev/null') named.add(f);
    if (header[1] === '---') {
      from = f;
      continue;
    }
    if (f !== '/dev/null') writes.add(f);
    if (from !== undefined && from !== '/dev/null' && from !== f) deletes.add(from);
    from = undefined;
  }
  return { writes: [...writes], deletes: [...deletes], named: [...named] };
}

/** Paths named in an apply_patch body (`*** Update File: x`, `+++ b/x`). */
export function patchPaths(patch: string): string[] {
  return patchEffects(patch).named;
}
