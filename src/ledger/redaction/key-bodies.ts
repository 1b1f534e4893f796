// The base64 body of an OpenSSH private key without its armor lines, as a CI
// log prints a multi-line secret input (`ssh-private-key: b3BlbnNzaC1r…`):
// the body goes on over the next lines, each after the log's timestamp.
import type { Span } from './text';
import { work } from './work';

/** base64 of "openssh-key-v1" and its NUL: every OpenSSH private key body starts with it. */
const OPENSSH_BODY = 'b3BlbnNzaC1rZXktdjE';
// A CI log line's prefix (GitHub Actions, Azure Pipelines: an ISO time; GitLab: a section marker), then blanks.
const LOG_PREFIX = /^(?:\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?Z?[ \t]+|[ \t]*)/;
const BASE64_LINE = /^[A-Za-z0-9+/]{16,}={0,2}[ \t]*\r?$/;
const BASE64_RUN = /^[A-Za-z0-9+/]{16,}={0,2}/;
/** Lines of a key body at most (a 16 KB RSA key is about 300 lines of 70). */
const MAX_LINES = 400;

export function findKeyBodies(text: string, spans: Span[]): void {
  let at = text.indexOf(OPENSSH_BODY);
  while (at !== -1) {
    const run = BASE64_RUN.exec(text.slice(at, at + 4096));
    let end = at + (run ? run[0].length : OPENSSH_BODY.length);
    spans.push({ start: at, end, rule: 'private-key' });
    // The lines after it while each is, after its log prefix, base64 alone.
    for (let n = 0; n < MAX_LINES; n++) {
      const ls = text.indexOf('\n', end);
      if (ls === -1) break;
      let le = text.indexOf('\n', ls + 1);
      if (le === -1) le = text.length;
      const line = text.slice(ls + 1, le);
      work.reads += line.length + 1;
      const prefix = LOG_PREFIX.exec(line)![0].length;
      const rest = line.slice(prefix);
      if (!BASE64_LINE.test(rest)) break;
      const body = rest.replace(/[ \t\r]+$/, '');
      spans.push({ start: ls + 1 + prefix, end: ls + 1 + prefix + body.length, rule: 'private-key' });
      end = le;
      if (body.endsWith('=')) break;
    }
    at = text.indexOf(OPENSSH_BODY, Math.max(end, at + 1));
  }
}
