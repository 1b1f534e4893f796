// Hostile inputs for the redactor: each repeats a fragment a detector keys
// on (a prefix, a separator, an unclosed quote) so that a pattern with
// nested or unbounded repetition, or a scan that restarts for every match,
// would take quadratic time. Shared by the fuzz test and npm run bench.
export function hostileInputs(bytes: number, seed = 1): [string, string][] {
  const fill = (s: string) => s.repeat(Math.ceil(bytes / s.length)).slice(0, bytes);
  let x = seed >>> 0 || 1;
  const rnd = () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 0x100000000;
  };
  const noise = (alphabet: string) => {
    let out = '';
    while (out.length < bytes) out += alphabet[Math.floor(rnd() * alphabet.length)];
    return out;
  };
  return [
    ['build log', fill('npm WARN deprecated some-package@1.0.0: use other-package instead\n')],
    ['one letter', fill('a')],
    ['name=name=', fill('x=')],
    ['password=password=', fill('password=')],
    ['unclosed quotes', fill('password="')],
    ['url userinfo', fill('https://u:p@')],
    ['url with many @', 'https://' + fill('a:@')],
    ['mysql -p', fill('mysql -p')],
    ['--password a', fill('--password a ')],
    ['--token', fill('--token ')],
    ['Authorization: Bearer', fill('Authorization: Bearer ')],
    ['x-api-key:', fill('x-api-key:')],
    ['jwt prefix', 'eyJ' + fill('a') + '.eyJ'],
    ['pem without end', '-----BEGIN RSA PRIVATE KEY-----' + fill('x')],
    ['csv rows', 'user,password\n' + fill('a,b\n')],
    ['table rows', fill('password   x\n')],
    ['netrc', fill('machine a login b ')],
    ['prose', fill('password is ')],
    ['putty lines', 'Private-Lines: 3\n' + fill('AAAA\n')],
    ['aws ids', fill('AKIA1234567890ABCDEF,')],
    ['quotes', fill(`'"`)],
    ['backslashes', fill('\\')],
    ['spaces after name', 'password:' + fill(' ')],
    ['curl -u', fill('curl -u ')],
    ['sshpass', fill('sshpass ')],
    ['long words', fill('A'.repeat(100) + ' ')],
    ['json members', fill('{"password": "abc\\"def", "token_count": 12, "x": "y"}\n')],
    ['separator noise', noise(' \t\n"\'`=:@/#%$&;\\-_.,|<>(){}[]aA1')],
    // Round 9's detectors: each keys on a fragment that could make it look back or ahead at every repeat.
    ['key bodies', fill('b3BlbnNzaC1rZXktdjE\n2025-01-01T00:00:00Z  AAAAAAAAAAAAAAAAAAAA\n')],
    ['repl echoes', fill('irb(main):001> credentials.token\n=> "x"\n>>> password\n')],
    ['json keys', '{"Hmac": ' + fill('{"Key": "v", "a": {"Key": "w"}, ')],
    ['yaml keys', 'signing:\n' + fill('  key: abc\n  x:\n    key: y\n')],
    ['davfs secrets', fill('cat /etc/davfs2/secrets\n/m u p\n')],
    ['bare pipe rows', fill('a|token|bbbbbbbbbbbbbbbbbbbb|token|')],
    ['sql inserts', fill("INSERT INTO t (a, password) VALUES ('x', ")],
    ['positional calls', fill('mysqli_connect("h", "u", ')],
    ['lists and maps', fill('PASSWORD=[\'a\', {value = "b", ')],
    ['base64 noise', noise('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=\n')],
    // Round 10a's detectors: each one's fragment, repeated on one line and on many.
    ['rar -hp', fill('rar a -hpx -p ')],
    ['curl cookies', fill("curl -b 'sid=abcdefgh; lang=en' --cookie a=b ")],
    ['tencent ids', fill('AKID' + 'a1B2'.repeat(9) + ' ')],
    ['credential calls across lines', fill('NewCredential(\n  "AKIDx",\n  ')],
    ['openvpn static keys', fill('-----BEGIN OpenVPN Static key V1-----\n0123456789abcdef\n')],
    ['ssh2 keys', fill('---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\nAAAA-\n')],
    ['haproxy userlists', fill('user a insecure-password b ')],
    ['bare arrows', fill('password => password => "x" ')],
    ['rootpw lines', fill('rootpw --plaintext ')],
    ['chpasswd lists', fill('chpasswd:\n  list: |\n    root:pw1x\n')],
    ['chpasswd without lists', fill('chpasswd ')],
    ['literal conversions', fill('password = []byte("x") token := Buffer.from(\'')],
    ['c defines', fill('#define API_KEY "x" char pass[] = "')],
    ['nginx directives', fill('set $api_key "x"; proxy_set_header X-Api-Key ')],
    ['build config fields', fill('buildConfigField("String", "API_KEY", "\\"x')],
    // Whole-text scans per line or per span: many lines that start like a name with no `=` after them, and many
    // spans in a text that never names the file a check looks for.
    ['names without =', fill('DB_PASSWORD_PROD value\n')],
    ['spans, no file named', fill('token: AAAAAAAAAAAAAAAAAAAAAAAAAAAA--BBBBBBBBBBBBBBBBBBBB--CCCCCCCCCCCCCCCC ')],
  ];
}
