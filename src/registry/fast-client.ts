// The sh text of the fast path the hook wrappers try before starting Node:
// when a `loom daemon` answers on the project's socket, curl carries the
// payload to it and the wrapper prints exactly what the Node runner would
// (src/serve/command-form.ts). Everything here is shell builtins except two
// processes: `head` (the payload is kept in a file first, so Node can still
// read it if the daemon fails mid-request) and `curl`. No socket, no curl,
// a refusal, a timeout, any status but 200 or a body that is not an answer:
// the wrapper goes on to the Node runner with the same payload.
//
// The socket name is computed as src/serve/socket-path.ts does: FNV-1a over
// the project folder's characters, each looked up in a table of printable
// ASCII (a character outside it: no default socket).
import { SOCKET_KEY_CHARS } from '../serve/socket-path';

/** Single-quoted for sh (a quote becomes '"'"'). */
const shSingle = (s: string) => `'${s.replace(/'/g, `'"'"'`)}'`;

/** What the daemon is asked for: one hook (hooks/<id>) or an event with a fixed harness (installed commands). */
export type FastTarget = { hookId: string } | { event: string; harness: string };

/** Seconds curl may take in all before the wrapper gives up on the daemon (LOOM_FAST_TIMEOUT overrides). */
export const FAST_TIMEOUT_S = 5;

export function fastPathSh(target: FastTarget, indent = ''): string {
  const query = 'hookId' in target ? `?form=command&hook=${target.hookId}&harness=\${LOOM_HARNESS-}` : `/${target.event}?form=command&harness=${target.harness}`;
  // Only a bare call (no flags, the pack's own registry) has the daemon's answer.
  const eligible = 'hookId' in target ? '[ $# -eq 0 ] && [ -z "${LOOM_CONFIG-}" ]' : '[ -z "${LOOM_CONFIG-}" ]';
  const lines = [
    // Opt-in: whatever listens on the socket is trusted to answer, and any process of the user could bind it when no daemon runs.
    `# Fast path (opt-in: LOOM_FAST=1 or LOOM_DAEMON=auto): a warm \`loom daemon\` for this project answers over its socket (docs/serve.md).`,
    `if ${eligible} && { [ "\${LOOM_FAST-}" = 1 ] || [ "\${LOOM_DAEMON-}" = auto ]; } && command -v curl >/dev/null 2>&1; then`,
    `  loom_p=\${LOOM_PROJECT_DIR:-\${CLAUDE_PROJECT_DIR:-\${GEMINI_PROJECT_DIR:-\${CURSOR_PROJECT_DIR:-\${FACTORY_PROJECT_DIR:-\${CRUSH_PROJECT_DIR:-}}}}}}`,
    `  loom_s=\${LOOM_SOCKET-}`,
    `  if [ -z "$loom_s" ]; then`,
    `    if [ -n "\${XDG_RUNTIME_DIR-}" ]; then loom_r=$XDG_RUNTIME_DIR/loom; elif [ -n "\${USER-}" ]; then loom_r=/tmp/loom-$USER; else loom_r=; fi`,
    `    loom_k=\${loom_p:-$PWD}; loom_h=2166136261; loom_t=${shSingle(SOCKET_KEY_CHARS)}`,
    `    while [ -n "$loom_r" ] && [ -n "$loom_k" ]; do`,
    `      loom_c=\${loom_k%"\${loom_k#?}"}; loom_k=\${loom_k#?}; loom_i=\${loom_t%%"$loom_c"*}`,
    `      if [ \${#loom_i} -lt 95 ]; then loom_h=$(( ((loom_h ^ (\${#loom_i} + 32)) * 16777619) % 4294967296 )); else loom_r=; fi`,
    `    done`,
    `    [ -z "$loom_r" ] || loom_s=$loom_r/p$loom_h.sock`,
    `  fi`,
    // The socket and its folder are the user's own (the daemon listens only in a 0700 folder): nobody else can plant either.
    `  loom_q=`,
    `  if [ -n "$loom_s" ] && [ -S "$loom_s" ] && [ -O "$loom_s" ] && [ -O "\${loom_s%/*}" ]; then`,
    // Kept in the socket's folder; fd 0 moves onto the copy, so Node can read it after a failure.
    `    loom_f=\${loom_s%/*}/in.$$`,
    `    if head -c 16777217 >"$loom_f"; then`,
    `      exec <"$loom_f"`,
    // -q: no ~/.curlrc (a user's -o, -i or -L would change what comes back); --noproxy: http_proxy must not reroute the socket.
    `      loom_a=$(curl -q -sfg --noproxy '*' --unix-socket "$loom_s" --connect-timeout 1 -m "\${LOOM_FAST_TIMEOUT:-${FAST_TIMEOUT_S}}" -H 'content-type: application/json' -H "x-loom-project: $loom_p" -H "x-loom-cwd: $PWD" -H "x-loom-keyed: \${LOOM_LEDGER_KEY:+1}\${LOOM_LEDGER_KEY_FILE:+1}" -H "x-loom-spool: in.$$" --data-binary @"$loom_f" "http://loom/hooks${query}" 2>/dev/null); loom_q=$?`,
    `      if [ $loom_q -eq 0 ]; then`,
    `        loom_n='`,
    `'`,
    `        loom_b=\${loom_a#*"$loom_n"}; loom_o=\${loom_b#*"$loom_n"}; loom_e=\${loom_b%%"$loom_n"*}; loom_x=\${loom_a%%"$loom_n"*}`,
    // An answer is three parts and a final dot; the daemon removed the copy (x-loom-spool).
    `        case $loom_b in *"$loom_n"*) case $loom_x/$loom_o in *"$loom_n"*) ;; "loom-answer 1 "[0-9]/*.)`,
    `          [ -z "$loom_e" ] || printf '%b' "$loom_e" >&2; loom_o=\${loom_o%.}; [ -z "$loom_o" ] || printf '%b' "$loom_o"`,
    `          exit "\${loom_x#loom-answer 1 }" ;; esac ;; esac`,
    `      fi`,
    `    elif [ -f "$loom_f" ]; then`,
    // The copy failed part way (stdin is partly read): Node judges what was kept (never an allow of an unread payload).
    `      exec <"$loom_f"`,
    `    fi`,
    `    rm -f "$loom_f"`,
    `  fi`,
    // Opt-in auto-start (LOOM_DAEMON=auto): no socket and no daemon starting (pid file), or a socket nobody listens on (curl: connection refused).
    // In the background with every stream closed: this call goes on to Node at once, the next ones find the daemon.
    `  if [ "\${LOOM_DAEMON-}" = auto ] && [ -n "$loom_s" ] && { { [ ! -e "$loom_s" ] && [ ! -e "\${loom_s%.sock}.pid" ]; } || [ "$loom_q" = 7 ]; } && command -v node >/dev/null 2>&1; then`,
    `    node "$loom_dir/../bin/loom.js" daemon start --quiet --socket "$loom_s" --project-dir "\${loom_p:-$PWD}" </dev/null >/dev/null 2>&1 &`,
    `  fi`,
    `fi`,
  ];
  return lines.map((l) => (l === `'` ? l : indent + l)).join('\n') + '\n';
}
