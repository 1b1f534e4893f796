// A file shown as a hex dump (`xxd .env`, `hexdump -C config`): its bytes are
// in the hex columns and, where printable, in the text column at the right,
// sixteen to a line, so a secret is cut across lines and across both columns.
// The dump's bytes are decoded and read as the text they are; a secret found
// there is removed from both columns of every line it spans.
import type { Span } from './text';
import { work } from './work';

// xxd: `00000010: 4153 533d 6877 4a72 6372 2166 6d34 4b70  ASS=hwJrcr!fm4Kp`
const XXD = /^([0-9a-f]{6,16}): ((?:[0-9a-f]{2,4} ){0,15}[0-9a-f]{2,4})  (.{1,32})$/;
// hexdump -C: `00000010  67 68 70 5f 36 65 78 77  6a 46 49 74 5a 63 38 7a  |ghp_6exwjFItZc8z|`
const CANON = /^([0-9a-f]{6,16})  ((?:[0-9a-f]{2} {1,2}){1,16}) *\|(.{1,16})\|$/;
const HINT = /^[0-9a-f]{6,16}(?:: | {2})[0-9a-f]{2}/m;
const MAX_LINES = 4096;

interface Byte {
  /** Where its two hex digits are, where its character in the text column is, and which dump line holds it. */
  hex: number;
  ascii: number;
  line: number;
}

export function findHexDumpSecrets(text: string, spans: Span[], detectIn: (decoded: string) => Span[]): void {
  if (!HINT.test(text)) return;
  let bytes: Byte[] = [];
  let decoded = '';
  const flush = () => {
    if (decoded.length >= 8) {
      for (const sp of detectIn(decoded)) {
        // Per line of the dump: the hex of the span's bytes there, and their characters in the text column.
        let i = sp.start;
        while (i < sp.end && i < bytes.length) {
          let j = i;
          while (j + 1 < sp.end && j + 1 < bytes.length && bytes[j + 1].line === bytes[i].line) j++;
          spans.push({ start: bytes[i].hex, end: bytes[j].hex + 2, rule: sp.rule });
          spans.push({ start: bytes[i].ascii, end: bytes[j].ascii + 1, rule: sp.rule });
          i = j + 1;
        }
      }
    }
    bytes = [];
    decoded = '';
  };
  let lines = 0;
  for (let ls = 0; ls < text.length && lines < MAX_LINES * 8; ) {
    let le = text.indexOf('\n', ls);
    if (le === -1) le = text.length;
    const line = text.slice(ls, le > ls && text.charCodeAt(le - 1) === 13 ? le - 1 : le);
    work.reads += line.length + 1;
    lines++;
    const m = line.length <= 200 ? XXD.exec(line) ?? CANON.exec(line) : null;
    if (m && bytes.length < MAX_LINES * 16) {
      const hexAt = ls + line.indexOf(m[2], m[1].length);
      const asciiAt = ls + line.lastIndexOf(m[3]);
      let k = 0;
      for (let p = 0; p + 1 < m[2].length; ) {
        if (m[2][p] === ' ') {
          p++;
          continue;
        }
        const b = parseInt(m[2].slice(p, p + 2), 16);
        decoded += String.fromCharCode(b);
        // The text column shows one character per byte; a byte past it (a short last line) has none.
        bytes.push({ hex: hexAt + p, ascii: k < m[3].length ? asciiAt + k : hexAt + p, line: lines });
        k++;
        p += 2;
      }
    } else flush();
    ls = le + 1;
  }
  flush();
}
