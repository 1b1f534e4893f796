// Secrets a program prints after a line of its own: keepassxc-cli asks "Enter password to unlock
// <db>:" (the master password is not echoed) and then prints the entry's attribute on the next
// line, or right after the prompt when the prompt ended without a line end; `firebase login:ci`
// prints "Use this token to login on a CI server:", a blank line, then the token. The first
// non-blank line after the banner (within two lines) goes when it is one word.
import { isPlaceholder } from './names';
import type { Span } from './text';
import { scan, work } from './work';

const BANNER = /(?:Enter password to unlock [^\n]{1,300}?:|Use this token to login on a CI server:|Insert password to unlock [^\n]{1,300}?:)[ \t]*/g;
const WORD = /^[ \t]{0,8}(\S{4,4096})[ \t]*\r?$/;
const PROMPT_START = /^[ \t]{0,4}(?:[$#%>]|PS [^>\n]{0,80}>)[ \t]/;

// An expect script or its transcript: `send "X\r"` right after a line that asks for a password (`expect "*assword:"`,
// or the prompt itself, `admin@host's password:`): X is what was typed at it.
const SEND = /^[ \t]{0,8}(?:exp_)?send(?:[ \t]{1,4}--)?[ \t]{1,4}"((?:[^"\\\n]|\\.){1,256}?)(?:\\r|\\n){0,2}"/;
// expect -d's trace of the same: `send: sending "X\r" to { exp4 }` after it matched a password pattern.
const SENDING = /^[ \t]{0,8}send:[ \t]sending[ \t]"((?:[^"\\\n]|\\.){1,256}?)(?:\\r|\\n){0,2}"[ \t]to[ \t]\{/;
const MATCHED_PASSWORD = /match(?:es)?[ \t](?:glob|regular[ \t]expression|exact)[ \t]pattern[ \t]"[^"\n]{0,40}(?:assword|assphrase|PIN)[^"\n]{0,40}"\?[ \t]yes/;
const ASKS = /(?:assword|assphrase|\bPIN)[^\n]{0,20}(?::|\*)[ \t"'}\]*]{0,4}\r?$/;

function findSentSecrets(text: string, spans: Span[]): void {
  let at = text.indexOf('send');
  while (at !== -1) {
    const ls = text.lastIndexOf('\n', at) + 1;
    let le = text.indexOf('\n', at);
    if (le === -1) le = text.length;
    const line = le - ls <= 400 ? text.slice(ls, le) : '';
    const traced = line ? SENDING.exec(line) : null;
    if (traced && MATCHED_PASSWORD.test(text.slice(Math.max(0, ls - 1200), ls)) && !isPlaceholder(traced[1])) {
      const start = ls + traced[0].indexOf(traced[1]);
      spans.push({ start, end: start + traced[1].length, rule: 'typed-secret' });
    }
    const m = line ? SEND.exec(line) : null;
    if (m && ls >= 1) {
      const ps = text.lastIndexOf('\n', ls - 2) + 1;
      work.reads += le - ps;
      const above = text.slice(ps, ls - 1);
      if (above.length <= 400 && ASKS.test(above) && !isPlaceholder(m[1]) && !m[1].startsWith('$')) {
        const start = ls + m[0].indexOf(m[1]);
        spans.push({ start, end: start + m[1].length, rule: 'typed-secret' });
      }
    }
    at = text.indexOf('send', le);
  }
}

export function findPromptedSecrets(text: string, spans: Span[]): void {
  if (text.includes('send')) findSentSecrets(text, spans);
  if (!text.includes('nlock ') && !text.includes('CI server:')) return;
  BANNER.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = scan(BANNER, text))) {
    let ls = m.index + m[0].length;
    // The same line, after the prompt; else the next two lines.
    for (let k = 0; k < 3 && ls <= text.length; k++) {
      let le = text.indexOf('\n', ls);
      if (le === -1) le = text.length;
      if (le - ls > 4096) break;
      work.reads += le - ls;
      const line = text.slice(ls, le);
      if (line.trim()) {
        const w = WORD.exec(line);
        if (w && !PROMPT_START.test(line) && !isPlaceholder(w[1]) && !/^(?:error|warning|usage|example)\b/i.test(w[1])) {
          const start = ls + line.indexOf(w[1]);
          spans.push({ start, end: start + w[1].length, rule: 'printed-secret' });
        }
        break;
      }
      if (le >= text.length) break;
      ls = le + 1;
    }
    BANNER.lastIndex = Math.max(BANNER.lastIndex, ls);
  }
}
