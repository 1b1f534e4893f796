// The redactor's fast scanners against the patterns they stand for: each
// finds the same matches, in the same order, as the plain regex scan did, on
// generated text made of the pieces those patterns key on (anchors, names,
// delimiters, quotes, line ends of every kind, blanks beyond ASCII).
import { describe, expect, it } from 'vitest';
import { scanLines } from '../src/ledger/redaction/anchored';
import { CLI_PROGRAMS, nextProgram } from '../src/ledger/redaction/cli-flags';
import { LINE_PATTERNS } from '../src/ledger/redaction/formats';
import { FTP_USER_PATTERN, schemeStart } from '../src/ledger/redaction/structured';
import { TOKEN_SHAPES } from '../src/ledger/redaction/token-shapes';

function rng(seed: number) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 0x100000000;
  };
}

const PIECES = [
  ' ', ' ', '\t', '\n', '\r\n', '\r', '\u00a0', '\u2028', '=', ';', '|', '&', '(', ')', '"', "'", '`', '/', ':', '://', '@', '[', ']', '],', ']=', '-', '--', '.', ',', '_', '\\',
  'a', 'Z', '9', 'x1', 'abc', 'Key', 'token', 'password', 'PASS ', 'user ', 'quote ', 'define(', 'setHeader(', 'headers[', 'api_key', 'secret',
  'mysql', 'curl', 'psql', 'sshpass', 'docker', 'xmysql', 'mysql2', '/usr/bin/', 'sqlplus ', 'scott/tiger@db', 'connect ', 'jdbc:oracle:thin:',
  '; path=/', '; Secure', '; HttpOnly', 'sessionid=', 'PHPSESSID=', 'https', 'git+ssh', 'x.y-z+w', '1http', '_s',
  '0123456789abcdef0123456789abcdef', '-us6', '-us12', 'AAAAbbbbCCC', ':APA91b', 'ABCDEFGHIJKLMN', '.atlasv1.', '\tpassword', '\tpassword2', 'QUJDREVGR0hJSktMTU5PUFFSU1RVVldY',
  '("', '", ', "('", "', ", 'getenv("DB_PASSWORD", ', 'AbC0_-'.repeat(12), 'AAAAbbbb:APA91b', 'ABCDEFGHIJKLMN.atlasv1.', '\nQUJDREVGR0hJSktMTU5PUFFSU1RVVldY\tpassword\n',
  'new mysqli(', 'PDO(', '.login(', '"h", ', "'u', ", '"p4ss")', "{'$write_key', <<\"", '{api_key, "', 'MTIzNDU2Nzg5MDEyMzQ1Njc4OTAx', '.GhJkLm.', 'Zq'.repeat(16), 'MTIzNDU2Nzg5MDEyMzQ1Njc4OTAx.GhJkLm.' + 'aB3x'.repeat(8), 'f[secret]=abc123def', '\nuser bob s3cretpw\n', '\nPASS x9y8z7\n',
];

// One match of each pattern, mixed in often enough that every pattern is reached whatever the draw.
const EXAMPLES = [
  'getenv("DB_PASSWORD", ', 'f[secret]=abc123def', '\nuser bob s3cretpw\n', '\nPASS x9y8z7\n', 'sqlplus scott/tiger@db', 'sessionid=abcdef123; Path=/',
  'SecretStr("Qw3rTy9uIo")', 'new mysqli("h", "u", "p4ss", "db")', "{'$write_key', <<\"", '0123456789abcdef0123456789abcdef-us6',
  'AAAAbbbb:APA91b' + 'AbC0_-'.repeat(20), 'ABCDEFGHIJKLMN.atlasv1.' + 'AbC0_-'.repeat(11), '\nQUJDREVGR0hJSktMTU5PUFFSU1RVVldY\tpassword\n',
  'MTIzNDU2Nzg5MDEyMzQ1Njc4OTAx.GhJkLm.' + 'aB3x'.repeat(8),
];

function text(r: () => number, pieces = PIECES, n = 40): string {
  let out = '';
  const len = 1 + Math.floor(r() * n);
  for (let i = 0; i < len; i++) {
    const p = r() < 0.06 ? EXAMPLES[Math.floor(r() * EXAMPLES.length)] : pieces[Math.floor(r() * pieces.length)];
    out += r() < 0.15 ? p.repeat(1 + Math.floor(r() * 30)) : p;
  }
  return out;
}

/** [index, whole match, groups...] of every match of a global pattern, as a plain scan finds them. */
function plainMatches(re: RegExp, s: string): string[][] {
  const out: string[][] = [];
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(s))) {
    if (m[0].length === 0) {
      re.lastIndex++;
      continue;
    }
    out.push([String(m.index), ...m.map((g) => g ?? '')]);
  }
  return out;
}

function lineMatches(re: RegExp, anchor: RegExp, s: string): string[][] {
  const out: string[][] = [];
  scanLines(re, anchor, s, (m) => out.push([String(m.index), ...m.map((g) => g ?? '')]));
  return out;
}

const ROUNDS = 1500;

describe('scanLines finds what the whole-text scan finds', () => {
  const pairs: [string, RegExp, RegExp][] = [
    ...LINE_PATTERNS.map(([re, a]): [string, RegExp, RegExp] => [re.source.slice(0, 40), re, a]),
    ['ftp user', ...FTP_USER_PATTERN],
    ...TOKEN_SHAPES.filter((t) => t.anchor).map((t): [string, RegExp, RegExp] => [t.name, t.re, t.anchor!]),
  ];
  for (const [name, re, anchor] of pairs) {
    it(name, () => {
      // A separate pattern object for the plain scan: scanLines moves the shared one's lastIndex.
      const plain = new RegExp(re.source, re.flags);
      const r = rng(name.length * 7919 + 1);
      let found = 0;
      for (let i = 0; i < ROUNDS; i++) {
        const s = text(r);
        const want = plainMatches(plain, s);
        found += want.length;
        expect(lineMatches(re, anchor, s), JSON.stringify(s)).toEqual(want);
      }
      // The generator must reach the pattern, or the comparison says nothing.
      expect(found).toBeGreaterThan(0);
    });
  }
});

describe('the program names found from each blank', () => {
  it('match the alternation of every name after a delimiter, before a space or tab', () => {
    const escaped = [...CLI_PROGRAMS].sort((a, b) => b.length - a.length).map((p) => p.replace(/[.+]/g, '\\$&'));
    const re = new RegExp(`(?:^|[\\s;&|(\`'"/=])(${escaped.join('|')})(?=[ \\t])`, 'g');
    const r = rng(42);
    const pieces = [...PIECES, ...CLI_PROGRAMS.slice(0, 60), 'ConvertTo-SecureString', 'psexec.py'];
    let found = 0;
    for (let i = 0; i < ROUNDS * 2; i++) {
      const s = text(r, pieces);
      // The same walk as findCliSecrets: after each name, go on from its end (or from a later point).
      const want: string[] = [];
      re.lastIndex = 0;
      let m: RegExpExecArray | null;
      const skips: number[] = [];
      while ((m = re.exec(s))) {
        want.push(`${m.index}:${m[1]}`);
        const skip = Math.floor(r() * 3) === 0 ? Math.min(s.length, re.lastIndex + Math.floor(r() * 8)) : re.lastIndex;
        skips.push(skip);
        re.lastIndex = skip;
      }
      const got: string[] = [];
      let from = 0;
      let p: ReturnType<typeof nextProgram>;
      let k = 0;
      while ((p = nextProgram(s, from))) {
        got.push(`${p.index}:${p.name}`);
        from = skips[k++] ?? p.end;
      }
      found += want.length;
      expect(got, JSON.stringify(s)).toEqual(want);
    }
    expect(found).toBeGreaterThan(100);
  });
});

describe('the URL scheme read back from ://', () => {
  it('starts where /\\b[a-zA-Z][a-zA-Z0-9+._-]{1,20}:\\/\\// starts', () => {
    const re = /\b[a-zA-Z][a-zA-Z0-9+._-]{1,20}:\/\//g;
    const r = rng(7);
    let found = 0;
    for (let i = 0; i < ROUNDS * 2; i++) {
      const s = text(r);
      const want = plainMatches(re, s).map((m) => Number(m[0]));
      const got: number[] = [];
      let next = 0;
      for (let sep = s.indexOf('://'); sep !== -1; sep = s.indexOf('://', Math.max(sep + 1, next))) {
        if (sep < next) continue;
        const start = schemeStart(s, sep, next);
        if (start === -1) continue;
        got.push(start);
        next = sep + 3;
      }
      found += want.length;
      expect(got, JSON.stringify(s)).toEqual(want);
    }
    expect(found).toBeGreaterThan(100);
  });
});
