// A token split over concatenated literals, to hide it from scanners: `const part1 = "ghp_";
// const part2 = "…"; const token = part1 + part2`. A short literal that is a token's prefix
// makes the literals assigned right after it (at most four, within 600 characters) parts of the
// token; a secret name built by concatenating variables makes the literals they hold parts of it.
import { isSensitiveName } from './names';
import { scanLines } from './anchored';
import type { Span } from './text';

const ASSIGN = /(?<![\w$.])([A-Za-z_$][\w$]{0,63})[ \t]{0,4}(?::[ \t]{0,4}[A-Za-z]{1,20}[ \t]{0,4})?=[ \t]{0,4}(["'`])([^"'`\\\n]{1,200})\2/g;
const ASSIGN_ANCHOR = /=[ \t]{0,4}["'`]/g;
const CONCAT = /(?<![\w$.])([A-Za-z_$][\w$]{0,63})[ \t]{0,4}=[ \t]{0,4}([A-Za-z_$][\w$]{0,63}(?:[ \t]{0,4}\+[ \t]{0,4}[A-Za-z_$][\w$]{0,63}){1,8})[ \t]{0,4}(?:;|$)/g;
const CONCAT_ANCHOR = /[\w$][ \t]{0,4}\+[ \t]{0,4}[A-Za-z_$]/g;
const TOKEN_PREFIX = /^(?:gh[pousr]_|github_pat_|glpat-|glptt-|xox[abposr]-|xapp-|sk-(?:proj-|ant-(?:api\d\d-)?)?|sk_(?:live|test)_|rk_(?:live|test)_|whsec_|AKIA|ASIA|hf_|npm_|pypi-|dop_v1_|shpat_|shpss_|SG\.|AIza|ya29\.|EAA|sq0atp-|sq0csp-)$/;
const PART = /^[A-Za-z0-9_.+/=-]{4,200}$/;

/** A literal that is a token prefix, alone in its quotes. */
const PREFIX_LITERAL = /["'`](?:gh[pousr]_|github_pat_|glpat-|glptt-|xox[abposr]-|xapp-|sk-|sk_|rk_|whsec_|AKIA|ASIA|hf_|npm_|pypi-|dop_v1_|shpat_|shpss_|SG\.|AIza|ya29\.|EAA|sq0)/;

export function findSplitLiterals(text: string, spans: Span[]): void {
  // Nothing to join without a + (a concatenation) or a prefix literal.
  if (!text.includes('=') || (!text.includes('+') && !PREFIX_LITERAL.test(text))) return;
  // Each literal assigned to a name, in order: the last one per name, and the token-prefix parts.
  const last = new Map<string, [number, number]>();
  let prefixAt = -1;
  let parts = 0;
  scanLines(ASSIGN, ASSIGN_ANCHOR, text, (m) => {
    const v = m[3];
    const start = m.index + m[0].length - 1 - v.length;
    if (last.size > 4096) last.clear();
    last.set(m[1], [start, start + v.length]);
    if (TOKEN_PREFIX.test(v)) {
      prefixAt = start;
      parts = 0;
      return;
    }
    if (prefixAt !== -1 && start - prefixAt <= 600 && parts < 4 && PART.test(v)) {
      parts++;
      spans.push({ start, end: start + v.length, rule: 'split-token' });
    } else prefixAt = -1;
  });
  if (last.size === 0 || !text.includes('+')) return;
  scanLines(CONCAT, CONCAT_ANCHOR, text, (m) => {
    if (!isSensitiveName(m[1])) return;
    for (const name of m[2].split('+')) {
      const at = last.get(name.trim());
      if (at && at[0] < m.index) spans.push({ start: at[0], end: at[1], rule: 'split-token' });
    }
  });
}
