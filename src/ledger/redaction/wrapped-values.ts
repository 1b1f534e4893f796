// A secret inside the wrapper a language prints around a value: Rust's
// Debug output (`password: Some("x")`), an Erlang or Elixir binary
// (`password => <<"x">>`), PHP's var_dump (`["password"]=>` then
// `string(13) "x"` on the next line), and PHP's print_r, whose values
// are bare to the end of the line (`[pass] => smtp pass 2024`).
import { isSensitiveAssignment, isSensitiveName } from './names';
import type { Span } from './text';
import { scan, work } from './work';

const WRAPPED = /(?<![\w.-])(?:\[["']?([A-Za-z_][\w.-]{0,63})["']?\]|([A-Za-z_][\w.-]{0,63}))[ \t]{0,3}(?:=>|:|=)[ \t]{0,3}(?:\r?\n[ \t]{0,16})?(?:Some\(|Ok\(|<<|string\(\d{1,6}\)[ \t]?|Secret\(|SecretString\(|Sensitive\()(["'])((?:\\.|(?!\3)[^\\\n]){1,1024})\3/g;
const WRAPPER_HINT = /Some\(|<<["']|string\(\d|Secret(?:String)?\(|Sensitive\(|Ok\(/;
const PRINT_R = /^[ \t]{0,64}\[([A-Za-z_][\w.-]{0,63})\] => ([^\n]{1,1024}?)[ \t]*\r?$/gm;

export function findWrappedValues(text: string, spans: Span[]): void {
  work.reads += text.length;
  if (WRAPPER_HINT.test(text)) {
    WRAPPED.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = scan(WRAPPED, text))) {
      const name = m[1] ?? m[2];
      const v = m[4];
      if (!isSensitiveName(name) || !isSensitiveAssignment(name, v)) continue;
      const start = m.index + m[0].length - 1 - v.length;
      spans.push({ start, end: start + v.length, rule: 'assignment' });
    }
  }
  if (text.includes('] => ')) {
    PRINT_R.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = scan(PRINT_R, text))) {
      const v = m[2];
      // A nested array or object opens on the next lines: its fields are judged there.
      if (v === 'Array' || v.startsWith('Array (') || /^[\w\\]+ Object$/.test(v) || !isSensitiveName(m[1]) || !isSensitiveAssignment(m[1], v)) continue;
      const start = m.index + m[0].indexOf('] => ') + 5;
      spans.push({ start, end: start + v.length, rule: 'assignment' });
    }
  }
}
