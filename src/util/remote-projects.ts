// `loom serve --team-url` judges projects that live on the developers'
// machines: a payload's cwd is a path there, recorded as a string and never
// looked up on the server's disk (no realpath, no policy file, no git, no
// ledger, no handoff). The handler bundles each hold their own copy of this
// module, so the switch lives in the global symbol registry.
const REMOTE = Symbol.for('loom.remoteProjects');

interface RemoteSetting {
  /** The folder whose .loom/policy.json is the team's policy layer; undefined: the pack's defaults only. */
  policyDir?: string;
}

/** Called once by the team server before it serves. */
export function setRemoteProjects(setting: RemoteSetting | undefined): void {
  (globalThis as Record<symbol, unknown>)[REMOTE] = setting;
}

/** The team server's setting when project paths are remote (nothing under them may be read or written here). */
export function remoteProjects(): RemoteSetting | undefined {
  return (globalThis as Record<symbol, unknown>)[REMOTE] as RemoteSetting | undefined;
}
