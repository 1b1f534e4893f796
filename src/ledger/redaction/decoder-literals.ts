// A literal given to a decoder: `echo 'B64' | base64 -d` (--decode, -D, openssl base64 -d) or
// `echo HEX | xxd -r -p`. The literal goes when what it decodes to holds a secret (the detectors
// find one in it, or it is user:secret), or when the command's output is a secret setting's
// value (`requirepass "$(echo HEX | xxd -r -p)"`, `DB_PASSWORD=$(echo … | base64 -d)`); an echo
// piped to an encoder (`| base64`, `| xxd -p`) for a secret setting gives the secret itself.
import { isBasicCredential, isPlaceholder, isSensitiveName } from './names';
import { scanLines } from './anchored';
import type { Span } from './text';

const PIPE = /\becho[ \t]{1,4}(?:-[neE]{1,3}[ \t]{1,4})?(["']?)([A-Za-z0-9+/=_-]{4,4096})\1[ \t]{0,4}\|[ \t]{0,4}((?:openssl[ \t]{1,4})?base64(?:[ \t]{1,4}(-d|-D|--decode))?|xxd(?:[ \t]{1,4}-r)?(?:[ \t]{1,4}-ps?)?(?:[ \t]{1,4}-r)?)/g;
const PIPE_ANCHOR = /\|[ \t]{0,4}(?:openssl[ \t]{1,4})?(?:base64|xxd)\b/g;
// The setting the command substitution is the value of: NAME=$(, NAME: "$(, name "$(.
const SETTING = /([A-Za-z_][\w.-]{0,63})["']?[ \t]{0,3}(?:[:=][ \t]{0,3}|[ \t]{1,3})["']?\$\([ \t]{0,2}$/;
const HEX = /^(?:[0-9a-fA-F]{2}){2,2048}$/;

/** JSON (a token's header, a config blob): its colons are members, not user:secret. */
const JSON_TEXT = /^\s*[{[]/;

export function findDecoderLiterals(text: string, spans: Span[], holdsSecret: (decoded: string) => boolean): void {
  if (!text.includes('echo')) return;
  scanLines(PIPE, PIPE_ANCHOR, text, (m) => {
    const lit = m[2];
    const decoder = m[3];
    const decoding = m[4] !== undefined || /-r\b/.test(decoder);
    const start = m.index + m[0].indexOf(lit, 4);
    const lineStart = text.lastIndexOf('\n', m.index) + 1;
    const before = text.slice(Math.max(lineStart, m.index - 100), m.index);
    const s = SETTING.exec(before);
    const forSecret = s !== null && isSensitiveName(s[1]);
    if (!decoding) {
      // Encoding a literal for a secret setting: the literal is the secret.
      if (forSecret && !isPlaceholder(lit)) spans.push({ start, end: start + lit.length, rule: 'decoded-literal' });
      return;
    }
    let decoded = '';
    if (decoder.startsWith('xxd')) {
      if (!HEX.test(lit)) return;
      decoded = Buffer.from(lit, 'hex').toString('latin1');
    } else decoded = Buffer.from(lit, 'base64').toString('latin1');
    if (forSecret || isBasicCredential(lit) || (decoded.length >= 6 && holdsSecret(decoded)) || (decoded.includes(':') && !JSON_TEXT.test(decoded) && isBasicCredential(Buffer.from(decoded, 'latin1').toString('base64')))) {
      spans.push({ start, end: start + lit.length, rule: 'decoded-literal' });
    }
  });
}
