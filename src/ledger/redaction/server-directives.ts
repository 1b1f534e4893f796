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
const DAEMON_SECRETS: { re: RegExp; anchor: RegExp; groups: number[] }[] = [
  { re: /^[ \t]{0,16}secret[ \t]{1,8}"([^"\n]{8,512})"[ \t]{0,4};/gm, anchor: /secret[ \t]{1,8}"/g, groups: [1] },
  { re: /^[ \t]{0,16}sentinel[ \t]{1,8}auth-pass[ \t]{1,8}\S{1,128}[ \t]{1,8}"?([^\s"]{1,512})"?/gm, anchor: /auth-pass/g, groups: [1] },
  { re: /^[ \t]{0,16}stats[ \t]{1,8}auth[ \t]{1,8}[^:\s]{1,128}:(\S{1,512})/gm, anchor: /stats[ \t]{1,8}auth/g, groups: [1] },
  { re: /^[ \t]{0,16}createUser[ \t]{1,8}\S{1,128}[ \t]{1,8}(?:MD5|SHA\S{0,8})[ \t]{1,8}"?([^\s"]{1,512})"?(?:[ \t]{1,8}(?:DES|AES\S{0,8})[ \t]{1,8}"?([^\s"]{1,512})"?)?/gm, anchor: /createUser/g, groups: [1, 2] },
  { re: /^[ \t]{0,16}r[ow]community6?[ \t]{1,8}([^\s#]{1,256})/gm, anchor: /community/g, groups: [1] },
];

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
  if (text.includes('secret') || text.includes('auth') || text.includes('createUser') || text.includes('community')) {
    for (const d of DAEMON_SECRETS) {
      scanLines(d.re, d.anchor, text, (m) => {
        for (const g of d.groups) {
          const v = m[g];
          if (v === undefined || isPlaceholder(v)) continue;
          const start = m.index + m[0].lastIndexOf(v);
          spans.push({ start, end: start + v.length, rule: 'directive' });
        }
      });
    }
  }
  if (text.includes('eader') || text.includes('_param') || text.includes('SetEnv')) scanLines(NAMED, NAMED_ANCHOR, text, (m) => mark(m, m[1], spans));
}
