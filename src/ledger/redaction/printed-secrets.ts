// What a command printed, where formats.ts's prompt reader does not look: a CI
// log's `Run` lines (GitHub Actions' `##[group]Run`, a timestamp before each
// line) running a command that prints a secret (the same table:
// PRINTS_SECRET), and `echo "$SECRET_NAME"` on any prompt with the value piped
// through an encoder that keeps it recoverable (`| base64`, `| xxd -p`, `|
// rev`). The output is the next lines up to a prompt or a blank (at most
// MAX_LINES), each one word. A digest of the secret (`| sha256sum`) is not it.
import { PRINTS_SECRET } from './formats';
import { isPlaceholder, isSensitiveName } from './names';
import type { Span } from './text';
import { work } from './work';

const MAX_LINES = 4;
const STAMP = /^(?:\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?Z?[ \t]{1,4})?/;
const CI_RUN = /^(?:##\[group\])?Run[ \t]{1,4}/;
const PROMPT = /^[ \t]{0,4}(?:[$#%>]|PS [^>\n]{0,80}>)[ \t]{1,4}/;
/** echo / printf of one variable named for a secret, through one to three encoders. */
const ENCODED_ECHO = /^(?:echo|printf(?:[ \t]{1,4}(?:'%s(?:\\n)?'|"%s(?:\\n)?"))?)(?:[ \t]{1,4}-[neE]{1,3})?[ \t]{1,4}["']?\$\{?([A-Za-z_]\w{0,63})\}?["']?[ \t]*(?:\|[ \t]*(?:base64|base32|basenc[ \t]+--\w+|xxd(?:[ \t]+-p)?|od(?:[ \t]+-\w+)*|hexdump(?:[ \t]+-\w+)*|rev|tr[ \t][^|\n]{1,40})[ \t]*){1,3}\r?$/;
const ECHO_ANY = /^(?:echo|printf)\b[^|\n]*\$\{?([A-Za-z_]\w{0,63})\}?["']?[ \t]*\r?$/;
const DIGEST = /\|[ \t]*(?:sha\d{1,3}sum|md5sum|b2sum|shasum|openssl[ \t]+dgst|wc)\b/;
const WORD = /^[ \t]{0,8}(\S{8,4096})[ \t]*\r?$/;

function printsSecret(cmd: string, ci: boolean): boolean {
  if (DIGEST.test(cmd)) return false;
  const e = ENCODED_ECHO.exec(cmd);
  if (e) return isSensitiveName(e[1]);
  if (!ci) return false;
  const plain = ECHO_ANY.exec(cmd);
  return (plain !== null && isSensitiveName(plain[1])) || PRINTS_SECRET.test(cmd);
}

export function findEncodedPrintedSecrets(text: string, spans: Span[]): void {
  if (!text.includes('\n') || !(text.includes('Run ') || text.includes('$ ') || text.includes('# ') || text.includes('> '))) return;
  let ls = 0;
  while (ls < text.length) {
    let le = text.indexOf('\n', ls);
    if (le === -1) le = text.length;
    work.reads += le - ls + 1;
    const line = text.slice(ls, Math.min(le, ls + 2048));
    const body = line.slice(STAMP.exec(line)![0].length);
    const p = CI_RUN.exec(body) ?? PROMPT.exec(body);
    if (p && printsSecret(body.slice(p[0].length).trim(), !PROMPT.test(body))) {
      let s = le + 1;
      for (let n = 0; n < MAX_LINES && s < text.length; n++) {
        let e = text.indexOf('\n', s);
        if (e === -1) e = text.length;
        const out = text.slice(s, Math.min(e, s + 4200));
        const st = STAMP.exec(out)![0].length;
        const rest = out.slice(st);
        if (!rest.trim() || CI_RUN.test(rest) || PROMPT.test(rest)) break;
        const w = WORD.exec(rest);
        if (!w) break;
        if (!isPlaceholder(w[1])) {
          const start = s + st + rest.indexOf(w[1]);
          spans.push({ start, end: start + w[1].length, rule: 'printed-secret' });
        }
        s = e + 1;
      }
    }
    ls = le + 1;
  }
}
