// Secrets in web-server and proxy configuration directives:
// HAProxy userlists (`user NAME insecure-password X`; `user NAME password $6$…`
// is a crypt hash the proxy verifies against, kept like any other hash),
// nginx `set $api_key "x";`, `proxy_set_header X-Api-Key "x";`, `fastcgi_param
// DB_PASSWORD x;`, Apache `SetEnv DB_PASSWORD "x"`, `RequestHeader set X-Api-Key "x"`.
// The directive's name decides; Authorization-like headers are headers.ts's.
// Daemons whose directive puts the secret after other words (DAEMON_SECRETS):
// BIND's TSIG `secret "x";`, Redis Sentinel's `sentinel auth-pass NAME x`,
// HAProxy's `stats auth user:x`, net-snmp's `createUser NAME SHA "x" AES "y"`
// and `rocommunity x`.
import { scanLines } from './anchored';
import { isPlaceholder, isSensitiveAssignment, isSensitiveName } from './names';
import type { Span } from './text';

const INSECURE_PASSWORD = /^[ \t]*user[ \t]{1,8}\S{1,64}[ \t]{1,8}insecure-password[ \t]{1,8}(?:"([^"\n]{1,512})"|(\S{1,512}))/gm;
const INSECURE_ANCHOR = /insecure-password/g;
const VALUE = `(?:"((?:\\\\.|[^"\\\\\\n]){1,1024})"|'([^'\\n]{1,1024})'|([^\\s;"']{1,1024}))`;
const NGINX_SET = new RegExp(`^[ \\t]*set[ \\t]{1,8}\\$([A-Za-z_]\\w{0,63})[ \\t]{1,8}${VALUE}`, 'gm');
const NGINX_SET_ANCHOR = /set[ \t]{1,8}\$/g;
const NAMED = new RegExp(
  `^[ \\t]*(?:proxy_set_header|grpc_set_header|add_header|more_set_input_headers|more_set_headers|fastcgi_param|uwsgi_param|scgi_param|SetEnv|PassEnv|RequestHeader[ \\t]{1,8}(?:set|append|add|merge|setifempty)|Header[ \\t]{1,8}(?:always[ \\t]{1,8})?(?:set|append|add|merge|setifempty))[ \\t]{1,8}["']?([A-Za-z_][\\w.-]{0,63})["']?:?[ \\t]{1,8}${VALUE}`,
  'gm',
);
const NAMED_ANCHOR = /[Hh]eader|_param|SetEnv/g;
const AUTHORIZATION = /^(?:proxy-)?authorization$/i;

/** Per daemon: the line shape, an anchor every match holds, and the groups that are secrets. */
const DAEMON_SECRETS: { re: RegExp; anchor: RegExp; groups: number[]; not?: RegExp }[] = [
  { re: /^[ \t]{0,16}secret[ \t]{1,8}"([^"\n]{8,512})"[ \t]{0,4};/gm, anchor: /secret[ \t]{1,8}"/g, groups: [1] },
  { re: /^[ \t]{0,16}sentinel[ \t]{1,8}auth-pass[ \t]{1,8}\S{1,128}[ \t]{1,8}"?([^\s"]{1,512})"?/gm, anchor: /auth-pass/g, groups: [1] },
  { re: /^[ \t]{0,16}stats[ \t]{1,8}auth[ \t]{1,8}[^:\s]{1,128}:(\S{1,512})/gm, anchor: /stats[ \t]{1,8}auth/g, groups: [1] },
  { re: /^[ \t]{0,16}createUser[ \t]{1,8}\S{1,128}[ \t]{1,8}(?:MD5|SHA\S{0,8})[ \t]{1,8}"?([^\s"]{1,512})"?(?:[ \t]{1,8}(?:DES|AES\S{0,8})[ \t]{1,8}"?([^\s"]{1,512})"?)?/gm, anchor: /createUser/g, groups: [1, 2] },
  { re: /^[ \t]{0,16}r[ow]community6?[ \t]{1,8}([^\s#]{1,256})/gm, anchor: /community/g, groups: [1] },
  // Cisco IOS and its kin: `enable secret 0 X`, `username N privilege 15 password 7 X`, `radius-server key 0 X`,
  // `key-string X`, `snmp-server community X RO`, after the device's prompt (`router(config)#`) or not. Type 0 is the secret as typed, 7 a reversible encoding of it;
  // types 5, 8 and 9 are hashes the device checks against, kept like any other hash.
  {
    re: /^(?:[\w.-]{1,64}(?:\([\w-]{1,32}\))?#[ \t]{0,2})?[ \t]{0,16}(?:enable[ \t]{1,4}(?:secret|password)|username[ \t]{1,4}\S{1,64}(?:[ \t]{1,4}privilege[ \t]{1,4}\d{1,2})?[ \t]{1,4}(?:secret|password)|(?:radius|tacacs)-server[ \t]{1,4}(?:host[ \t]{1,4}\S{1,128}[ \t]{1,4}(?:[a-z-]{1,16}[ \t]{1,4}\d{1,5}[ \t]{1,4}){0,3})?key|key-string|snmp-server[ \t]{1,4}community|pre-shared-key(?:[ \t]{1,4}address[ \t]{1,4}\S{1,64})?|wpa-psk[ \t]{1,4}ascii)[ \t]{1,4}(?:[07][ \t]{1,4}|(?![0-9][ \t]))(\S{1,256})/gm,
    anchor: /secret|password|key|community/g,
    groups: [1],
  },
  // strongSwan / libreswan ipsec.secrets: `: PSK "X"`, `host : XAUTH user "X"`, `: EAP "X"`.
  { re: /(?:^|[ \t]):[ \t]{1,4}(?:PSK|XAUTH|EAP|NTLM|PIN)[ \t]{1,4}(?:[^\s"']\S{0,63}[ \t]{1,4})?(?:"([^"\n]{1,512})"|'([^'\n]{1,512})'|([^\s"']{1,512}))/gm, anchor: /PSK|XAUTH|EAP|NTLM|PIN/g, groups: [1, 2, 3] },
  // curl's config file (.curlrc, curl -K): `user = "name:password"`, `--proxy-user name:password` (`=` or blanks: a
  // YAML `user: "1000:1000"` is a uid and gid).
  { re: /^[ \t]{0,8}(?:--)?(?:proxy-)?user(?:[ \t]{0,4}=[ \t]{0,4}|[ \t]{1,4})"?[^:\s"]{1,128}:([^\s"]{1,512})"?[ \t]*$/gm, anchor: /user/g, groups: [1], not: /^\d{1,10}$/ },
];

/** Every DAEMON_SECRETS anchor holds one of these. */
const DAEMON_HINT = /secret|auth|createUser|community|password|key|PSK|XAUTH|EAP|NTLM|PIN|user/;

function mark(m: RegExpExecArray, name: string, spans: Span[]): void {
  const v = m[2] ?? m[3] ?? m[4];
  if (v === undefined || AUTHORIZATION.test(name) || !isSensitiveName(name) || !isSensitiveAssignment(name, v)) return;
  const start = m.index + m[0].length - v.length - (m[4] === undefined ? 1 : 0);
  spans.push({ start, end: start + v.length, rule: 'directive' });
}

export function findServerDirectives(text: string, spans: Span[]): void {
  if (text.includes('insecure-password')) {
    scanLines(INSECURE_PASSWORD, INSECURE_ANCHOR, text, (m) => {
      const v = m[1] ?? m[2];
      const start = m.index + m[0].length - v.length - (m[1] !== undefined ? 1 : 0);
      spans.push({ start, end: start + v.length, rule: 'haproxy-userlist' });
    });
  }
  if (text.includes('set $') || text.includes('set\t$')) scanLines(NGINX_SET, NGINX_SET_ANCHOR, text, (m) => mark(m, m[1], spans));
  if (DAEMON_HINT.test(text)) {
    for (const d of DAEMON_SECRETS) {
      scanLines(d.re, d.anchor, text, (m) => {
        for (const g of d.groups) {
          const v = m[g];
          if (v === undefined || isPlaceholder(v) || d.not?.test(v)) continue;
          const start = m.index + m[0].lastIndexOf(v);
          spans.push({ start, end: start + v.length, rule: 'directive' });
        }
      });
    }
  }
  if (text.includes('eader') || text.includes('_param') || text.includes('SetEnv')) scanLines(NAMED, NAMED_ANCHOR, text, (m) => mark(m, m[1], spans));
}
