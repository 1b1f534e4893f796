// A debugger transcript (gdb, lldb): a print command whose expression names a secret
// (`(gdb) p cfg->bind_pw`, `(lldb) po token`), then what the debugger printed for it on the
// next line: gdb's `$1 = 0x55… "x"`, lldb's `(NSString *) $0 = 0x… @"x"`, or po's bare value.
import { isPlaceholder, isSensitiveName } from './names';
import type { Span } from './text';
import { scan, work } from './work';

const PROMPT = /^[ \t]{0,4}\((?:gdb|lldb)\)[ \t]{1,4}(?:p|print|po|inspect|call|output|expr|expression|frame variable|fr v|v|var|x\/s)(?:\/[a-z]{1,4})?[ \t]{1,4}([^\n]{1,400})$/gm;
const NAME = /[A-Za-z_]\w{0,63}/g;
// `$1 = `, `(type) $0 = `, an address before a C string, Objective-C's @"…"; a quoted value, or po's value alone.
const ECHO = /^[ \t]{0,4}(?:\([^()\n]{1,80}\)[ \t]{0,2})?(?:\$\d{1,6}[ \t]{0,2}=[ \t]{0,2})?(?:0x[0-9a-fA-F]{1,16}[ \t]{1,2})?(?:@?"((?:[^"\\\n]|\\.){1,4096})"|'((?:[^'\\\n]|\\.){1,4096})'|([^\s"'$(][^\s]{5,4095}))[ \t]*\r?$/;
const NOT_A_SECRET = /^(?:nil|null|NULL|None|true|false|undefined|0x[0-9a-fA-F]{1,16}|-?\d{1,20}|<[^>]{0,200}>|\{[^}]{0,200}\})$/;

export function findDebuggerEchoes(text: string, spans: Span[]): void {
  if (!text.includes('gdb)') && !text.includes('lldb)')) return;
  PROMPT.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = scan(PROMPT, text))) {
    const expr = m[1];
    let named = false;
    NAME.lastIndex = 0;
    let w: RegExpExecArray | null;
    while (!named && (w = NAME.exec(expr))) named = w[0].length > 1 && isSensitiveName(w[0]);
    work.reads += expr.length;
    if (!named) continue;
    const ls = m.index + m[0].length + 1;
    if (ls >= text.length) continue;
    let le = text.indexOf('\n', ls);
    if (le === -1) le = text.length;
    if (le - ls > 4200) continue;
    const line = text.slice(ls, le);
    work.reads += line.length;
    const e = ECHO.exec(line);
    if (!e) continue;
    const v = e[1] ?? e[2] ?? e[3];
    if (v.length < 4 || NOT_A_SECRET.test(v) || isPlaceholder(v)) continue;
    // The value ends the line (before its closing quote, when quoted).
    const body = line.trimEnd().length - (e[3] === undefined ? 1 : 0);
    const start = ls + body - v.length;
    spans.push({ start, end: start + v.length, rule: 'debugger-echo' });
  }
}
