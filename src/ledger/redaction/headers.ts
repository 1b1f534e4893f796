// HTTP headers whose value is a credential, in any case and any spelling an
// agent writes them: curl -H 'Name: value', "Name": "value", Name=value,
// raw request dumps. For Authorization-like headers the scheme word is kept
// (Bearer, token, Basic, Bot, SSWS, Splunk, Digest, ...) and the rest of the
// value goes, whatever the scheme.
import { groupedAlternation } from './alternation';
import { isFilePath, isPlaceholder, SIGNATURE_DIGEST, SIGNATURE_NAME } from './names';
import { readValue, type Span } from './text';
import { scan, work } from './work';

export interface HeaderRule {
  name: string;
  /** The value starts with a scheme word that is kept. */
  scheme: boolean;
}

export const SECRET_HEADERS: HeaderRule[] = [
  { name: 'Authorization', scheme: true },
  { name: 'Proxy-Authorization', scheme: true },
  { name: 'X-Api-Key', scheme: false },
  { name: 'Api-Key', scheme: false },
  { name: 'ApiKey', scheme: false },
  { name: 'X-API-Token', scheme: false },
  { name: 'X-Auth-Token', scheme: false },
  { name: 'X-Access-Token', scheme: false },
  { name: 'X-Auth-Key', scheme: false },
  { name: 'Ocp-Apim-Subscription-Key', scheme: false },
  { name: 'PRIVATE-TOKEN', scheme: false },
  { name: 'JOB-TOKEN', scheme: false },
  { name: 'X-Vault-Token', scheme: false },
  { name: 'X-Consul-Token', scheme: false },
  { name: 'X-Nomad-Token', scheme: false },
  { name: 'X-Shopify-Access-Token', scheme: false },
  { name: 'X-Goog-Api-Key', scheme: false },
  { name: 'X-Functions-Key', scheme: false },
  { name: 'X-Figma-Token', scheme: false },
  { name: 'X-Gitlab-Token', scheme: false },
  { name: 'X-Hub-Signature', scheme: false },
  { name: 'X-Hub-Signature-256', scheme: false },
  { name: 'X-Postmark-Server-Token', scheme: false },
  { name: 'X-Riot-Token', scheme: false },
  { name: 'X-TrackerToken', scheme: false },
  { name: 'X-Dreamfactory-Api-Key', scheme: false },
  { name: 'X-RapidAPI-Key', scheme: false },
  { name: 'X-Algolia-API-Key', scheme: false },
  { name: 'X-Pinggy-Token', scheme: false },
  { name: 'X-Emby-Token', scheme: false },
  { name: 'X-Plex-Token', scheme: false },
  { name: 'X-CSRF-Token', scheme: false },
  { name: 'X-Amz-Security-Token', scheme: false },
  { name: 'DD-API-KEY', scheme: false },
  { name: 'DD-APPLICATION-KEY', scheme: false },
  { name: 'X-Secret', scheme: false },
  { name: 'Secret-Key', scheme: false },
  { name: 'Client-Secret', scheme: false },
  { name: 'X-Client-Secret', scheme: false },
  { name: 'X-Honeycomb-Team', scheme: false },
  { name: 'X-Sentry-Auth', scheme: false },
  { name: 'Circle-Token', scheme: false },
  { name: 'X-Circle-Token', scheme: false },
  { name: 'X-Cisco-Meraki-API-Key', scheme: false },
  { name: 'X-Redmine-API-Key', scheme: false },
  { name: 'X-Octopus-ApiKey', scheme: false },
  { name: 'X-JFrog-Art-Api', scheme: false },
  { name: 'X-Parse-REST-API-Key', scheme: false },
  { name: 'X-Parse-Master-Key', scheme: false },
  { name: 'X-Appwrite-Key', scheme: false },
  { name: 'X-Typesense-Api-Key', scheme: false },
  { name: 'X-Meili-API-Key', scheme: false },
  { name: 'X-Api-Secret', scheme: false },
  { name: 'X-Buildkite-Token', scheme: false },
  { name: 'X-Airtable-Api-Key', scheme: false },
  { name: 'X-Notion-Token', scheme: false },
  { name: 'X-Mailchimp-Key', scheme: false },
  { name: 'X-Postmark-Account-Token', scheme: false },
  { name: 'X-Splunk-Token', scheme: false },
  { name: 'Splunk-Token', scheme: false },
  { name: 'X-SF-Token', scheme: false },
  { name: 'X-Insert-Key', scheme: false },
  { name: 'X-License-Key', scheme: false },
  { name: 'X-Query-Key', scheme: false },
  { name: 'Api-Token', scheme: false },
  { name: 'X-Token', scheme: false },
  { name: 'Cookie', scheme: false },
  { name: 'Set-Cookie', scheme: false },
];

const BY_NAME = new Map(SECRET_HEADERS.map((h) => [h.name.toLowerCase(), h]));
// One alternation of literal names grouped by first letter (a name holds no quote, blank, : or =, so at most one
// matches at a position); bounded separator.
const NAMES = groupedAlternation([...BY_NAME.keys()], (n) => n.replace(/[-]/g, '[-_]'), true);
const HEADER_RE = new RegExp(`(?<![A-Za-z0-9_-])(${NAMES})(["']?)[ \\t]{0,3}[:=][ \\t]{0,3}`, 'gi');
export const HEADER_HINTS = ['uthoriz', 'UTHORIZ', 'ey', 'EY', 'oken', 'OKEN', 'ookie', 'OOKIE', 'ecret', 'ECRET', 'ignature', 'IGNATURE'];

// Cookies that carry a session or a credential; other cookies (theme, lang) stay.
export const SECRET_COOKIE = /sess|sid|auth|token|jwt|remember|login|csrf|xsrf|secret|key|cred|^_?[a-z]{0,8}_?id$/i;

// Per-header patterns as module constants (a literal in the function is a new RegExp per header found).
const BLANK = /[ \t]/;
const SCHEME_WORD = /^[A-Za-z][A-Za-z0-9_.-]{0,30}$/;
const VARIABLE = /^\$\{?[A-Za-z_]\w*\}?$/;
const UNDERSCORES = /_/g; // with replace only, which resets lastIndex

const KUBECTL_REF = /^<set to the key '[^'\n]{1,253}' (?:in secret|of config map) '[^'\n]{1,253}'>(?:[ \t]{2,40}Optional: (?:true|false))?[ \t]*$/;

/** Marks header credential values in `text`. */
export function findHeaders(text: string, spans: Span[]): void {
  HEADER_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = scan(HEADER_RE, text))) {
    const name = m[1].toLowerCase().replace(UNDERSCORES, '-');
    const rule = BY_NAME.get(name);
    if (!rule) continue;
    const before = text[m.index - 1];
    const enclosing = m[2] ? undefined : before === '"' || before === "'" ? before : undefined;
    const at = m.index + m[0].length;
    // The value: quoted after the separator, or up to the quote that opened the header, or to the end of the line.
    const v = readValue(text, at, { enclosing, toLineEnd: true, stops: m[2] || enclosing ? '' : undefined });
    if (!v) continue;
    let [start, end] = v;
    // A JSON or code value ends at its closing quote; an unquoted value after a quoted name ends at , } or ).
    if (m[2] && text[at] !== '"' && text[at] !== "'") {
      work.reads += end - start;
      for (let i = start; i < end; i++) if (text[i] === ',' || text[i] === '}' || text[i] === ')') end = i;
    }
    if (name === 'cookie' || name === 'set-cookie') {
      cookies(text, start, end, spans);
      HEADER_RE.lastIndex = end;
      continue;
    }
    if (rule.scheme) {
      // Keep the scheme word: "Bearer abc" -> "Bearer [REDACTED]"; a lone value goes whole.
      const sp = text.slice(start, end).search(BLANK);
      if (sp > 0 && SCHEME_WORD.test(text.slice(start, start + sp))) {
        start += sp;
        while (text[start] === ' ' || text[start] === '\t') start++;
      }
    }
    const value = text.slice(start, end);
    if (start >= end || isPlaceholder(value) || VARIABLE.test(value) || isFilePath(value)) continue;
    // A structure under a key-like name (`"apiKey": {"type": "string"}` in a schema): its members are judged, not it.
    if (m[2] && (text[start] === '{' || text[start] === '[')) continue;
    // A placeholder word and a remark after it (sk_live_xxxx… (placeholder, set X)): read to the line end, the first word decides.
    const blank = value.search(BLANK);
    if (blank > 0 && !rule.scheme && isPlaceholder(value.slice(0, blank))) continue;
    // X-Hub-Signature-256: sha256=…: a digest of one payload, not a key.
    if (SIGNATURE_NAME.test(name) && SIGNATURE_DIGEST.test(value)) continue;
    // kubectl describe's env column: <set to the key 'x' in secret 'y'>  Optional: false (a template, then more columns).
    if (value.startsWith('<') && KUBECTL_REF.test(value)) continue;
    spans.push({ start, end, rule: 'header' });
    HEADER_RE.lastIndex = end;
  }
}

function cookies(text: string, start: number, end: number, spans: Span[]): void {
  work.reads += end - start;
  let i = start;
  while (i < end) {
    let semi = text.indexOf(';', i);
    if (semi === -1 || semi > end) semi = end;
    const pair = text.slice(i, semi);
    const eq = pair.indexOf('=');
    if (eq > 0) {
      const name = pair.slice(0, eq).trim();
      const vs = i + eq + 1;
      const value = text.slice(vs, semi).trim();
      if (SECRET_COOKIE.test(name) && value.length >= 6 && !isPlaceholder(value)) spans.push({ start: vs, end: semi, rule: 'cookie' });
    }
    i = semi + 1;
  }
}

