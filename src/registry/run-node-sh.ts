// How a loom shell command starts Node. It does not exec: when Node itself
// dies (an abort, a segfault, out of memory under a ulimit: 128+signal) the
// runner's own fail-closed code never ran, and that status would reach the
// harness, which reads anything but 2 as "go ahead". The shell stays to turn
// any status the runner never gives (it gives 0, 1 or 2) into a block with
// one line. The cost is one fork of the shell, not another program.

/**
 * POSIX sh: run node on `runner` (already quoted) with `args`; exits with the runner's status or 2. On an event
 * that can block, 1 is a block too: the runner answers such an event with 0 or 2 only, so a 1 there is Node
 * failing before the runner could (a damaged install: a missing or corrupt bundle throws at load), and Codex,
 * Gemini CLI and most harnesses read 1 as "go ahead".
 */
export function runNodeFailClosedSh(runner: string, args: string, canBlock = false): string {
  const answered = canBlock ? '[ $loom_s -eq 0 ] || [ $loom_s -eq 2 ]' : '[ $loom_s -le 2 ]';
  // NODE_V8_COVERAGE names where Node writes coverage as it exits: a folder it cannot make (/proc/self/x) makes
  // Node retry forever after the answer, so the harness sees a hang. A hook writes no coverage.
  return `NODE_EXTRA_CA_CERTS= NODE_V8_COVERAGE= node ${runner} ${args}; loom_s=$?; ${answered} || { echo "loom: the hook runner died (exit $loom_s) before answering. Blocked." >&2; exit 2; }; exit $loom_s`;
}

/** Windows cmd: the same after `node ...` has run (errorlevel over 2 or negative, as an NTSTATUS crash code is). */
export const CMD_FAIL_CLOSED = `if %ERRORLEVEL% GTR 2 (echo loom: the hook runner died ^(exit %ERRORLEVEL%^) before answering. Blocked. 1>&2 & exit /b 2)\r
if %ERRORLEVEL% LSS 0 (echo loom: the hook runner died ^(exit %ERRORLEVEL%^) before answering. Blocked. 1>&2 & exit /b 2)\r
exit /b %ERRORLEVEL%\r
`;
