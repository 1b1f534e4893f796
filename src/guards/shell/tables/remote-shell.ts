// What makes a reverse (or bind) shell: a shell whose input and output are a
// network connection. Data for families/remote-shell.ts and the interpreter
// family; the docs table is generated from here.

/** Paths bash opens as network connections. */
export const NET_DEVICE = /^\/dev\/(?:tcp|udp)\/[^/]+\/[^/]+$/;

/** Network clients that can carry a shell's stdio, and the options that make them run a program on the connection. */
export const NET_CLIENTS: Record<string, RegExp | undefined> = {
  nc: /^(?:-[A-Za-z]*[ec][A-Za-z]*|--exec|--sh-exec|--lua-exec)(?:=.*)?$/,
  ncat: /^(?:-[A-Za-z]*[ec][A-Za-z]*|--exec|--sh-exec|--lua-exec)(?:=.*)?$/,
  netcat: /^(?:-[A-Za-z]*[ec][A-Za-z]*|--exec|--sh-exec)(?:=.*)?$/,
  'nc.traditional': /^-[A-Za-z]*[ec][A-Za-z]*$/,
  'nc.openbsd': undefined,
  cryptcat: /^-[A-Za-z]*e[A-Za-z]*$/,
  telnet: undefined,
  socat: undefined,
  openssl: undefined,
  busybox: undefined,
};

/** socat addresses that run a program (its stdio becomes the other address). */
export const SOCAT_EXEC = /^(?:exec|system)[:,]/i;
/** socat addresses that are a network connection. */
export const SOCAT_NET = /^(?:tcp|tcp4|tcp6|tcp-connect|tcp-listen|tcp4-listen|tcp6-listen|udp|udp4|udp6|udp-connect|udp-listen|openssl|openssl-connect|openssl-listen|ssl|sctp|sctp-connect|sctp-listen|socks4|socks4a|socks5|proxy)[:-]/i;

/** Interpreter code that opens a socket ... */
export const CODE_SOCKET = /\bsocket\s*\.\s*socket\b|\bsocket\s*\(|\bsocket\s*\.\s*create_connection\b|\bTCPSocket\b|\bUDPSocket\b|\bfsockopen\s*\(|\bstream_socket_client\b|\bnet\s*\.\s*(?:Socket|connect|createConnection)\b|\bnew\s+net\.Socket\b|IO::Socket|\bSocket::|\bDeno\s*\.\s*connect\b|\bBun\s*\.\s*connect\b|\bsocket\.connect\b/;
/** ... and hands it to a shell: fd duplication, a pty, a shell whose pipes are the socket. */
export const CODE_SHELL_ON_SOCKET = /\bdup2\s*\(|\bpty\s*\.\s*spawn\b|open\s*\(\s*STD(?:IN|OUT|ERR)\s*,\s*["']?[<>+]*&|\bproc_open\s*\(|\.pipe\s*\(\s*\w+\s*\.\s*stdin\b|\bstdin\s*\.\s*pipe\b|(?:exec|system|spawn|popen|execve?|shell_exec|passthru)\s*\(?\s*(?:sprintf\s*\(\s*)?["'`](?:\/bin\/|\/usr\/bin\/)?(?:ba|z|da|k|c|tc)?sh\b[^"'`]*(?:-i|<&|>&)|["'](?:\/bin\/|\/usr\/bin\/)?(?:ba|z|da|k)?sh["']\s*,\s*\[?\s*["']-i["']|\bspawn\s*\(\s*["'](?:\/bin\/|\/usr\/bin\/)?(?:ba|z|da|k)?sh["']/;

/** Shells whose stdio, redirected to a connection, make a remote shell. */
export const SHELL_NAMES = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'mksh', 'yash', 'posh', 'fish', 'rbash', 'tcsh', 'csh', 'busybox', 'osh', 'loksh', 'oksh', 'ksh93', 'pdksh']);
