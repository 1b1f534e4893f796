// Secrets in web-server and proxy configuration directives:
// HAProxy userlists (`user NAME insecure-password X`; `user NAME password $6$…`
// is a crypt hash the proxy verifies against, kept like any other hash),
// nginx `set $api_key "x";`, `proxy_set_header X-Api-Key "x";`, `fastcgi_param
// DB_PASSWORD x;`, Apache `SetEnv DB_PASSWORD "x"`, `RequestHeader set X-Api-Key "x"`.
// The directive's name decides; Authorization-like headers are headers.ts's.
import { scanLines } from './anchored';
import { isSensitiveAssignment, isSensitiveName } from './names';
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
  if (text.includes('eader') || text.includes('_param') || text.includes('SetEnv')) scanLines(NAMED, NAMED_ANCHOR, text, (m) => mark(m, m[1], spans));
}
