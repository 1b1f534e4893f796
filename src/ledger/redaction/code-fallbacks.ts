// Literal fallbacks of a read of a secret-named variable: the literal is the secret used when the
// variable is unset (`process.env.API_KEY ?? 'x'`, `os.getenv("TOKEN") or "x"`, `ENV["PASSWORD"] || "x"`,
// `getenv('DB_PASS') ?: 'x'`, `ENV.fetch("KEY") { "x" }`, and the shell's `${DB_PASSWORD-x}` /
// `${TOKEN:=x}`). The read itself is a reference and stays; a placeholder fallback stays too.
import { isPlaceholder, isSensitiveName } from './names';
import type { Span } from './text';
import { scan } from './work';

const CODE_FALLBACK =
  /(?:\b(?:process\.env|import\.meta\.env|Bun\.env)(?:\.([A-Za-z_]\w{0,63})|\[[ \t]{0,2}(["'`])([A-Za-z_]\w{0,63})\2[ \t]{0,2}\])|\b(?:os\.getenv|os\.environ\.get|getenv|Deno\.env\.get|ENV\.fetch|System\.getenv|Environment\.GetEnvironmentVariable)\([ \t]{0,2}(["'])([A-Za-z_]\w{0,63})\4[ \t]{0,2}\)|(?:\bENV|\$_ENV|\$_SERVER|\bos\.environ)\[[ \t]{0,2}(["'])([A-Za-z_]\w{0,63})\6[ \t]{0,2}\])[ \t]{0,3}(?:\?\?|\|\||\?:|\bor\b|\{)[ \t]{0,3}(["'`])((?:[^"'`\\\n]|\\.){1,512})\8/g;
const SHELL_DEFAULT = /\$\{([A-Za-z_]\w{0,63}):?[-=]([^}\s"'$][^}\n]{0,255})\}/g;

function mark(spans: Span[], name: string, value: string, start: number, rule: string): void {
  if (!isSensitiveName(name) || isPlaceholder(value)) return;
  spans.push({ start, end: start + value.length, rule });
}

export function findCodeFallbacks(text: string, spans: Span[]): void {
  let m: RegExpExecArray | null;
  if (text.includes('env') || text.includes('ENV') || text.includes('environ')) {
    CODE_FALLBACK.lastIndex = 0;
    while ((m = scan(CODE_FALLBACK, text))) {
      const name = m[1] ?? m[3] ?? m[5] ?? m[7];
      const value = m[9];
      mark(spans, name, value, m.index + m[0].length - 1 - value.length, 'code-default');
    }
  }
  if (text.includes('${')) {
    SHELL_DEFAULT.lastIndex = 0;
    while ((m = scan(SHELL_DEFAULT, text))) mark(spans, m[1], m[2], m.index + m[0].length - 1 - m[2].length, 'shell-default');
  }
}
