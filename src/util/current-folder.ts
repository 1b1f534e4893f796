// process.cwd() throws libuv's bare "ENOENT ... uv_cwd" when the folder was
// removed under a running shell (an agent's `rm -rf` of its own worktree, a
// branch switch that deletes the folder). Said in words, once, everywhere.
export class CurrentFolderGone extends Error {}

export const CURRENT_FOLDER_GONE = 'the current folder no longer exists (removed or renamed while in use); run loom from a folder that exists';

export function currentFolder(): string {
  try {
    return process.cwd();
  } catch {
    throw new CurrentFolderGone(CURRENT_FOLDER_GONE);
  }
}
