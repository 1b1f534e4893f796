// C and C++ constants: `#define WIFI_PASSWORD "x"`, `#define API_KEY L"x"`,
// `const char mqtt_pass[] = "x";`, `static char token[33] PROGMEM = "x";`
// (pointer and auto declarations are plain assignments already). Only a
// quoted value: `#define MAX_PASSWORD_LEN 64` is a number, not a secret.
import { scanLines } from './anchored';
import { isSensitiveAssignment, isSensitiveName } from './names';
import type { Span } from './text';

const DEFINE = /^[ \t]*#[ \t]{0,4}define[ \t]{1,8}([A-Za-z_]\w{0,63})[ \t]{1,8}\(?(?:L|u8|u|U)?"((?:\\.|[^"\\\n]){1,1024})"/gm;
const DEFINE_ANCHOR = /define/g;
const CHAR_ARRAY = /\b([A-Za-z_]\w{0,63})[ \t]{0,3}\[[ \t]{0,3}\w{0,20}[ \t]{0,3}\][ \t]{0,3}(?:PROGMEM[ \t]{0,3})?=[ \t]{0,3}(?:L|u8|u|U)?"((?:\\.|[^"\\\n]){1,1024})"/g;
const CHAR_ARRAY_ANCHOR = /\][ \t]{0,3}(?:PROGMEM[ \t]{0,3})?=[ \t]{0,3}(?:L|u8|u|U)?"/g;

function mark(m: RegExpExecArray, spans: Span[]): void {
  const name = m[1];
  const v = m[2];
  if (!isSensitiveName(name) || !isSensitiveAssignment(name, v)) return;
  const start = m.index + m[0].length - 1 - v.length;
  spans.push({ start, end: start + v.length, rule: 'assignment' });
}

export function findCLiterals(text: string, spans: Span[]): void {
  if (!text.includes('"')) return;
  if (text.includes('define')) scanLines(DEFINE, DEFINE_ANCHOR, text, (m) => mark(m, spans));
  if (text.includes('char') && text.includes(']')) scanLines(CHAR_ARRAY, CHAR_ARRAY_ANCHOR, text, (m) => mark(m, spans));
}
