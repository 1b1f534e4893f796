// A secret stored by a CLI under a name given in another option: `drone secret
// add --name docker_password --data x`, `gh secret set NPM_TOKEN --body x`,
// `fly secrets set`, `vercel env add`: the value option carries the secret when
// the name says it is one (the option's own name, --data, says nothing).
import { isPlaceholder, isSensitiveName } from './names';
import type { Span } from './text';
import { scanLines } from './anchored';

const NAME = /(?:--name|--key|-n)[= ]["']?([A-Za-z_][\w.-]{0,63})|\bsecret[ \t]+(?:set|add|create)[ \t]+["']?([A-Za-z_][\w.-]{0,63})/;
const VALUE = /--(?:data|value|body|secret-value)[= ](?:'([^'\n]{1,2048})'|"((?:[^"\\\n]|\\.){1,2048})"|([^\s'"]{1,2048}))/g;
const ANCHOR = /--(?:data|value|body|secret-value)[= ]/g;

export function findNamedSecretFlags(text: string, spans: Span[]): void {
  if (!text.includes('--data') && !text.includes('--value') && !text.includes('--body') && !text.includes('--secret-value')) return;
  scanLines(VALUE, ANCHOR, text, (m) => {
    const line = m.input;
    const n = NAME.exec(line);
    const name = n?.[1] ?? n?.[2];
    const v = m[1] ?? m[2] ?? m[3];
    if (!name || !isSensitiveName(name) || isPlaceholder(v) || v.startsWith('@') || v.startsWith('$')) return;
    const start = m.index + m[0].length - v.length - (m[3] === undefined ? 1 : 0);
    spans.push({ start, end: start + v.length, rule: 'cli-flag' });
  });
}
