// What the screen (screen.ts) looks for, derived at build time from the
// detector tables: a string that holds none of these can hold no secret any
// detector finds, so the hook path need not load the detectors for it. The
// build writes the result to src/generated/redaction-screen.js; the
// differential test (test/redaction-screen.test.ts) checks on every test
// string that a screened-out string has no secret span.
import { CLI_FLAGS } from './cli-flags';
import { SECRET_HEADERS } from './headers';
import { LOCAL_PASSWORD_WORDS, maybeSensitiveName, SENSITIVE_NEEDLE_LIST } from './names';
import { TOKEN_SHAPES } from './token-shapes';

export interface ScreenData {
  /** Lower-case literals, compared case-insensitively: the sensitive-name needles and the words below. */
  words: string[];
  /** Token hints, compared as written (case matters: AKIA, ghp_). */
  hints: string[];
  /** Programs whose secret options need no sensitive word (mysql -p, curl -u): the option strings, or true when any argument can be one. */
  programs: Record<string, string[] | true>;
}

/**
 * Literals that detectors key on without a sensitive-name needle, each for the detector named. A detector
 * added without its literal here fails the differential test on its own test strings.
 */
const DETECTOR_WORDS: [string, string][] = [
  ['identified', 'SQL IDENTIFIED BY'],
  ['ftp', 'ftp scripts (user NAME PASSWORD, PASS x)'],
  ['hmac', 'HMAC keys in code'],
  ['sqlplus', 'Oracle connect strings'], ['connect', 'Oracle connect strings, positional connect calls'], ['conn ', 'Oracle connect strings'],
  ['jdbc', 'Oracle connect strings'], ['rman', 'Oracle'], ['expdp', 'Oracle'], ['impdp', 'Oracle'], ['exp ', 'Oracle'], ['imp ', 'Oracle'], ['sqlldr', 'Oracle'], ['dgmgrl', 'Oracle'], ['sql ', 'Oracle'],
  ['kty', 'JWK private members'],
  ['login', 'smtp.login(user, password)'], ['creds', '-creds user:secret'],
  ['licen', 'license blocks and calls'], ['securestring', 'SSM SecureString'], ['sensitive', 'terraform sensitive output'],
  ['userlist', 'pgbouncer userlist'], ['mysqli', 'positional passwords'], ['pdo', 'positional passwords'],
  ['ldap_bind', 'positional passwords'], ['sqlsrv', 'positional passwords'], ['contribsys', 'gem source credentials'], ['bundle_', 'gem source credentials'], ['bundle config', 'gem source credentials'],
  ['askpass', 'askpass scripts'], ['concealed', '1Password fields'],
  ['\ttrue\t', 'Netscape cookies.txt'], ['\tfalse\t', 'Netscape cookies.txt'], ['davfs', 'davfs2 secrets'], ['chap', 'chap-secrets'], ['pap-', 'pap-secrets'],
  ['<key>', 'plists'], ['value=', 'XML value attributes'], ['private-lines', 'PuTTY keys'], ['private-mac', 'PuTTY keys'],
  ['stdin', 'secrets echoed into --password-stdin and other stdin readers'], ['<<<', 'secrets given on stdin by a here-string'], ['sudo', 'sudo -S reads the password from stdin'],
  ['setuser', 'redis MONITOR ACL SETUSER'], ["auth'", "Redis AUTH sent from code ('AUTH', 'user', 'pass')"], ['auth"', 'Redis AUTH sent from code ("AUTH", "pass")'],
  ['community', 'net-snmp rocommunity / rwcommunity'], ['createuser', 'net-snmp createUser'], ['stats auth', 'HAProxy stats auth user:password'],
  ['--data', 'a secret stored under a name another option gives'], ['--value', 'a secret stored under a name another option gives'], ['--body', 'a secret stored under a name another option gives'],
  [' on >', 'Redis ACL rules (user NAME on >password)'], [' off >', 'Redis ACL rules (user NAME off >password)'], ['<master>', 'Maven settings-security.xml'], ['<!--', 'HTML comments with a login and password'],
  ['backup', '2FA backup codes'], ['recovery', '2FA recovery codes'], ['scratch', '2FA scratch codes'], ['emergency', '2FA emergency codes'],
  ['base64', 'literals given to a decoder'], ['xxd', 'literals given to a decoder'],
  ['chpasswd', 'stdin readers'], ['cryptsetup', 'stdin readers'], ['kinit', 'stdin readers'], ['unlock', 'stdin readers'], ['ssh-add', 'stdin readers'],
  ['-b ', 'curl -b cookies'], ['-b\t', 'curl -b cookies'], ['algolia', 'positional Algolia keys'], ['searchclient', 'positional Algolia keys'],
  ['openvpn static key', 'OpenVPN static keys'], ['ssh2 encrypted', 'SSH2 private keys'],
  [': psk', 'IPsec secrets'], [': xauth', 'IPsec secrets'], [': eap', 'IPsec secrets'], [': ntlm', 'IPsec secrets'], [': pin', 'IPsec secrets'],
  ['key-string', 'Cisco key chains'], ['enable ', 'Cisco enable secret'], ['-server', 'Cisco radius-server / tacacs-server key'],
  ['user ', 'curl config user name:password'], ['user=', 'curl config user=name:password'],
];
// Not words, shapes (screen.ts): a key-like run (random keys, WIF, product keys, hex keys), `://`, a line end or an escape
// (transcripts, printed and decoded secrets, REPL echoes), `;` with `=` (cookie jars), four colons (pgpass), 31 commas
// (keypair arrays), eleven blanks (seed phrases), a quote next to `+` (concatenated strings).

export function screenData(): ScreenData {
  const words = new Set(SENSITIVE_NEEDLE_LIST);
  for (const [w] of DETECTOR_WORDS) words.add(w.toLowerCase());
  // The word for password in other languages (localized prose): the ASCII spellings (the others are beyond ASCII, which the screen passes).
  for (const w of LOCAL_PASSWORD_WORDS) if (/^[\x00-\x7f]+$/.test(w)) words.add(w.toLowerCase());
  // Header names that hold no needle (X-Honeycomb-Team): the name itself, with - and _ both (the detector takes either).
  for (const h of SECRET_HEADERS) {
    const n = h.name.toLowerCase();
    if (!maybeSensitiveName(n, 0, n.length)) {
      words.add(n);
      words.add(n.replace(/-/g, '_'));
    }
  }
  const hints = new Set<string>();
  for (const s of TOKEN_SHAPES) for (const h of s.hints) hints.add(h);
  const programs: Record<string, string[] | true> = {};
  for (const r of CLI_FLAGS) {
    for (const p of r.programs) {
      // A positional secret needs no word; a named pair (git config user.password x) has its name's needle.
      if (r.lastArgWith) {
        programs[p] = true;
        continue;
      }
      const cur = programs[p];
      if (cur === true) continue;
      const flags = new Set(cur ?? []);
      for (const f of r.flags) if (!maybeSensitiveName(f.flag, 0, f.flag.length)) flags.add(f.flag);
      programs[p] = [...flags];
    }
  }
  return { words: [...words].sort(), hints: [...hints].sort(), programs };
}
