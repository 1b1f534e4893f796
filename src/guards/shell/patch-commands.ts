// Programs that apply a patch handed to them on the line (a heredoc, a
// here-string, an operand): Codex's `apply_patch`, `git apply`, `patch`.
// What the patch adds, updates or deletes is judged as that write or
// delete would be (`cp … PATH`, `rm PATH`), so a patch that rewrites
// `.claude/settings.json` or deletes `.loom/policy.json` is no way round the
// path rules. A patch only known at run time is left to the rules for the
// program itself. The patch grammar is the contract's (patchEffects), shared
// with the patch tool of Codex and OpenCode.

/** Options after which the program only reads the patch (reports, checks), changing nothing. */
const CHECK_ONLY: Record<string, RegExp> = {
  git: /^--(?:check|stat|numstat|summary)$/,
  patch: /^(?:--dry-run|-C|--check)$/,
};

/** The patch program of a command line and where its text comes from (`stdin`, or the operand given). */
export function patchProgram(name: string, argv: string[]): { from: 'stdin' | 'operand'; operand?: string } | undefined {
  if (name === 'apply_patch' || name === 'applypatch') {
    const op = argv.slice(1).find((a) => !a.startsWith('-'));
    return op !== undefined && op.includes('*** Begin Patch') ? { from: 'operand', operand: op } : { from: 'stdin' };
  }
  if (name === 'git' && argv[1] === 'apply') {
    const rest = argv.slice(2);
    if (rest.some((a) => CHECK_ONLY.git.test(a))) return undefined;
    // Files named as operands are read from disk (not known here); `-` or none is stdin.
    const files = rest.filter((a) => !a.startsWith('-') || a === '-');
    return files.length === 0 || files.every((f) => f === '-') ? { from: 'stdin' } : undefined;
  }
  if (name === 'patch') {
    if (argv.slice(1).some((a) => CHECK_ONLY.patch.test(a) || a === '-i' || a.startsWith('--input'))) return undefined;
    return { from: 'stdin' };
  }
  return undefined;
}
