// SSH_ASKPASS / SUDO_ASKPASS / GIT_ASKPASS helper scripts: a line naming the askpass script (`cat
// ~/.ssh/askpass.sh`, `cat > askpass <<EOF`, `# askpass`), then within eight lines the line that
// answers the prompt: `echo "x"`, `echo x`, `printf '%s\n' x`, `exec echo x`. A variable reference
// ($PASS) is a placeholder and stays.
import { isPlaceholder } from './names';
import type { Span } from './text';
import { work } from './work';

const ECHO_LINE = /^[ \t]{0,8}(?:exec[ \t]{1,4})?(?:echo|printf)[ \t]{1,4}(?:-[neE]{1,3}[ \t]{1,4})?(?:(["'])%s(?:\\n)?\1[ \t]{1,4})?(?:'([^'\n]{1,512})'|"((?:[^"\\\n]|\\.){1,512})"|([^\s'";|&]{1,512}))[ \t]*;?[ \t]*\r?$/;
const MAX_LINES = 8;

export function findAskpassSecrets(text: string, spans: Span[]): void {
  if (!/askpass/i.test(text)) return;
  const re = /askpass/gi;
  let m: RegExpExecArray | null;
  let done = 0;
  while ((m = re.exec(text))) {
    let ls = text.indexOf('\n', m.index);
    if (ls === -1) break;
    ls = Math.max(ls + 1, done);
    for (let k = 0; k < MAX_LINES && ls < text.length; k++) {
      let le = text.indexOf('\n', ls);
      if (le === -1) le = text.length;
      if (le - ls > 1024) break;
      work.reads += le - ls;
      const e = ECHO_LINE.exec(text.slice(ls, le));
      if (e) {
        const v = e[2] ?? e[3] ?? e[4];
        if (!isPlaceholder(v)) {
          const start = ls + text.slice(ls, le).lastIndexOf(v);
          spans.push({ start, end: start + v.length, rule: 'askpass-secret' });
        }
      }
      ls = le + 1;
    }
    done = ls;
    re.lastIndex = Math.max(re.lastIndex, ls);
  }
  work.reads += text.length;
}
