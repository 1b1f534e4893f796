// A secret name given a literal wrapped in a conversion: Go `[]byte("x")`,
// `string("x")`, Node `Buffer.from("x")`, Python `bytes("x", "utf-8")`,
// `str("x")`, Rust `b"x"` (after a type: `SECRET: &[u8] = b"x"`),
// `String::from("x")`, `SecretString::new("x"…)`, and a typed Rust or TypeScript
// declaration (`let token: &str = "x"`, `const token: string = "x"`). The literal is the value;
// a conversion of anything else (`[]byte(os.Getenv("X"))`, `Buffer.from(data)`) stays.
import { scanLines } from './anchored';
import { isPlaceholder, isSensitiveAssignment, isSensitiveName } from './names';
import type { Span } from './text';

const CONVERTED =
  /(?<![\w$.])([A-Za-z_]\w{0,63})["']?(?:[ \t]{0,3}:[ \t]{0,3}&?(?:'static[ \t]{1,3})?[\w<>\[\]]{1,40})?[ \t]{0,3}(?::=|=|:)[ \t]{0,3}(?:\[\]byte\(|string\(|String\(|Buffer\.from\(|bytes\(|bytearray\(|str\(|String::from\(|[A-Z]\w{0,40}::new\(|b(?=["'])|br(?=["'])|@(?="))[ \t]{0,2}(["'])((?:\\.|(?!\2)[^\\\n]){1,512})\2/g;
const CONVERSION = /\[\]byte\(|string\(|String\(|Buffer\.from\(|bytes\(|bytearray\(|str\(|::from\(|::new\(|\bbr?["']|@"/g;

// A typed declaration: Rust `let token: &str = "x"`, `const KEY: &[u8] = b"x"`, `static SECRET: &'static str = "x"`, TypeScript `const token: string = "x"`.
const TYPED =
  /(?<![\w$.])([A-Za-z_]\w{0,63})[ \t]{0,3}:[ \t]{0,3}(?:&(?:'static[ \t]{1,3})?)?(?:str|\[u8\]|String|string|&?\[u8;[ \t]?\d{1,4}\])[ \t]{0,3}=[ \t]{0,3}(?:b|r#?)?(["'])((?:\\.|(?!\2)[^\\\n]){1,512})\2/g;
const TYPED_ANCHOR = /(?:str|\]|String|string)[ \t]{0,3}=/g;

/** Literals one of which every match holds, tested before the anchor scan (most text holds none). */
const GATES = ['byte(', 'tring(', 'from(', '::new(', 'str(', 'bytes(', 'bytearray(', 'b"', "b'", '@"'];

// A value the API itself calls a plain-text secret: CDK's SecretValue.unsafePlainText("x") (unsafe_plain_text in Python).
const UNSAFE_PLAIN = /\bSecretValue\.(?:unsafePlainText|unsafe_plain_text|plainText|plain_text)\([ \t]{0,2}(["'])((?:\\.|(?!\1)[^\\\n]){1,512})\1/g;
// Bicep and ARM: `param adminPassword string = 'x'` (a secret's name, whatever its decorator says).
const BICEP_PARAM = /\bparam[ \t]{1,4}([A-Za-z_]\w{0,63})[ \t]{1,4}(?:string|secureString|securestring)[ \t]{0,3}=[ \t]{0,3}(')((?:\\.|[^'\\\n]){1,512})'/g;

function mark(m: RegExpExecArray, spans: Span[]): void {
  const name = m[1];
  const v = m[3];
  if (!isSensitiveName(name) || !isSensitiveAssignment(name, v)) return;
  const start = m.index + m[0].length - 1 - v.length;
  spans.push({ start, end: start + v.length, rule: 'assignment' });
}

export function findLiteralConversions(text: string, spans: Span[]): void {
  if (text.includes(' str') || text.includes('&str') || text.includes('u8]') || text.includes('tring =') || text.includes('tring=')) scanLines(TYPED, TYPED_ANCHOR, text, (m) => mark(m, spans));
  let m: RegExpExecArray | null;
  if (text.includes('SecretValue.')) {
    UNSAFE_PLAIN.lastIndex = 0;
    while ((m = UNSAFE_PLAIN.exec(text))) {
      const start = m.index + m[0].length - 1 - m[2].length;
      if (!isPlaceholder(m[2])) spans.push({ start, end: start + m[2].length, rule: 'assignment' });
    }
  }
  if (text.includes('param ')) {
    BICEP_PARAM.lastIndex = 0;
    while ((m = BICEP_PARAM.exec(text))) mark(m, spans);
  }
  if (!GATES.some((g) => text.includes(g))) return;
  scanLines(CONVERTED, CONVERSION, text, (m) => mark(m, spans));
}
