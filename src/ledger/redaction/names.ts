// Which names hold secrets (NAME=value, "name": "value", --name value,
// header names) and which values are placeholders rather than secrets.
// Tables first: docs/redaction.md is generated from them.

/** A name holds a secret when one of these words is in it and no word after it changes the meaning (DB_PASSWORD_PROD, TOKEN_GITHUB_CI). */
export const SENSITIVE_WORDS = [
  'password', 'passwd', 'passphrase', 'pwd', 'secret', 'secrets', 'token', 'apikey', 'credential', 'credentials', 'sessionid', 'storepass', 'keypass', 'sshpass',
  // sssd/PAM's authtok, OpenWeather's appid, a password pepper, a wallet's mnemonic, SimpleSAMLphp's secretsalt.
  'authtok', 'appid', 'pepper', 'mnemonic', 'secretsalt',
  // The word for password in other languages, as configuration spells it (ASCII): clave, senha, Passwort, wachtwoord, hasło...
  'clave', 'contrasena', 'senha', 'passwort', 'kennwort', 'wachtwoord', 'haslo', 'parola', 'salasana', 'losenord', 'adgangskode', 'jelszo', 'sifre', 'heslo', 'geslo', 'lozinka', 'parool', 'motdepasse',
  // ... and as it is written: Russian, Spanish, Polish, Chinese, Japanese, Korean.
  'пароль', 'contraseña', 'hasło', '密码', 'パスワード', '비밀번호',
];

/**
 * The word for password in other languages as program output and configuration write it, diacritics and
 * all (`lösenord =`, `şifre:`, `Kennwort:`): a name, or a label before a colon, in localized text.
 */
export const LOCAL_PASSWORD_WORDS = [
  'mot de passe', 'passwort', 'kennwort', 'contraseña', 'contrasena', 'senha', 'wachtwoord', 'hasło', 'haslo', 'пароль', 'パスワード', '密码', '密碼', '비밀번호',
  'lösenord', 'losenord', 'şifre', 'sifre', 'şifrə', 'jelszó', 'jelszo', 'parolă', 'parola', 'heslo', 'geslo', 'lozinka', 'лозинка', 'парола', 'parool', 'salasana',
  'adgangskode', 'passord', 'kodeord', 'lykilorð', 'slaptažodis', 'wagwoord', 'κωδικός', 'סיסמה', 'كلمة المرور', 'كلمة السر', 'पासवर्ड', 'รหัสผ่าน',
  'mật khẩu', 'kata sandi', 'kata laluan',
  // Keys and tokens, said in the same languages (接口密钥=…, トークン: …).
  '密钥', '秘钥', '私钥', '令牌', '口令', '秘密鍵', 'トークン', 'シークレット', '토큰', '비밀키', '암호', 'токен', 'секрет', 'clave',
];

/** Words that hold a secret only as the last word (or before qualifiers): db_pass, DB_PW, x-signature, code_verifier. */
export const SENSITIVE_LAST_WORDS = ['pass', 'pw', 'tok', 'auth', 'authorization', 'sig', 'signature', 'bearer', 'cookie', 'verifier', 'salt', 'psk', 'pat', 'pin', 'hmac'];

/** A word after the sensitive one that makes the name about the secret, not the secret: token_count, password_reset_url, SECRET_ARN. */
export const NOT_SECRET_AFTER = [
  'url', 'uri', 'endpoint', 'file', 'files', 'path', 'dir', 'folder', 'name', 'names', 'id', 'ids', 'arn', 'count', 'counts', 'limit', 'limits', 'length', 'len', 'min',
  'max', 'size', 'expiry', 'expires', 'expiration', 'expire', 'ttl', 'timeout', 'lifetime', 'duration', 'age', 'policy', 'policies', 'type', 'types', 'mode', 'reset',
  'required', 'header', 'prefix', 'suffix', 'field', 'fields', 'format', 'regex', 'pattern', 'rotation', 'rotate', 'version', 'enabled', 'disabled', 'enable', 'disable',
  'flag', 'hint', 'label', 'placeholder', 'prompt', 'message', 'msg', 'error', 'errors', 'strength', 'validator', 'validation', 'manager', 'provider', 'service', 'source',
  'ref', 'reference', 'list', 'usage', 'used', 'scope', 'scopes', 'permission', 'permissions', 'generator', 'input', 'form', 'box', 'button', 'text', 'host', 'domain',
  'server', 'realm', 'method', 'methods', 'store', 'storage', 'backend', 'helper', 'command', 'cmd', 'env', 'var', 'variable', 'key_id', 'kind', 'class', 'santa', 'ary',
  'change', 'changed', 'updated', 'created', 'at', 'date', 'time', 'timestamp', 'stats', 'metrics', 'status', 'state', 'valid', 'invalid', 'check', 'checker', 'test',
  'spec', 'specs', 'example', 'sample', 'docs', 'doc', 'help', 'len', 'encoding', 'algorithm', 'algo', 'hint', 'rules', 'rule', 'location', 'region', 'stdin', 'fd',
  'issuer', 'audience', 'endpoint', 'sent', 'received', 'budget', 'usage', 'price', 'rate', 'window', 'bucket', 'index', 'position', 'pos', 'offset', 'start', 'end',
  'digest', 'hash', 'hashed', 'checksum', 'accessor', 'within', 'hasher', 'hashers', 'hashing', 'validators', 'encoder', 'encoders',
];

/** Whole names that hold secrets although no word above ends them. */
export const SENSITIVE_NAMES = [
  // netsh wlan show profile key=clear prints the Wi-Fi key as `Key Content`.
  'key_content', 'mysql_pwd', 'rediscli_auth', 'pgpassword', 'sshpass', 'htpasswd', 'private_token', 'x_vault_token', 'vault_token', 'x_auth_token', 'dsn', 'sentry_dsn',
  'connection_string', 'connectionstring', 'database_url', 'db_url', 'redis_url', 'mongo_url', 'mongodb_uri', 'amqp_url', 'broker_url', 'jsessionid', 'phpsessid',
  'private_key_id', 'api_hash', 'secret_id', 'encrypt', 'requirepass', 'masterauth', 'pgpass', 'wpa_psk', 'wep_key0', 'wep_key1', 'wep_key2', 'wep_key3',
  'unseal_key', 'recovery_key', 'root_token', 'otp_secret', 'totp_secret', 'mfa_secret', 'master_key',
  'access_key_id', 'aws_access_key_id', 'vault_secret_id', 'approle_secret_id',
  // slapd.conf's and ldap.conf's password directives.
  // (olcRootPW needs no entry: `pw` is a last word; an entry would make `root` a needle of every name.)
  'rootpw', 'olcrootpw', 'bindpw',
  'mot_de_passe',
  // Yarn Berry's npmAuthIdent (user:password), npm's _auth, Composer's http-basic.
  'npm_auth_ident', 'npmauthident', '_auth',
  // One-time-password seeds (the base32 secret an authenticator app is given).
  'mfa_seed', 'totp_seed', 'otp_seed', 'otp_key', 'totp_key', 'mfa_key',
];

/** Words before the sensitive one that make the name about a secret kept elsewhere: existingSecret (a Secret's name), showPassword, hasToken. */
// A digest of a secret is not the secret: `checksum/secret` (a pod annotation), detect-secrets' `hashed_secret`.
export const NOT_SECRET_BEFORE = ['existing', 'use', 'has', 'is', 'show', 'hide', 'forgot', 'num', 'prompt', 'ask', 'require', 'requires', 'needs', 'allow', 'enable', 'disable', 'public', 'checksum', 'hashed', 'digest', 'sha1', 'sha256', 'sha512', 'md5'];

/** "<word> key" names that hold a key: api_key, secret_key, Ocp-Apim-Subscription-Key. */
export const KEY_QUALIFIERS = [
  'api', 'access', 'secret', 'private', 'signing', 'encryption', 'master', 'account', 'license', 'admin', 'service', 'auth', 'subscription', 'client', 'app',
  'consumer', 'webhook', 'session', 'shared', 'hmac', 'jwt', 'encrypt', 'decrypt', 'root', 'deploy', 'storage', 'functions', 'host', 'write', 'read',
  'routing', 'integration', 'ingest', 'ingestion', 'unseal', 'recovery', 'gossip', 'cookie', 'otp', 'totp', 'origin', 'ca', 'runner', 'registration', 'join', 'sdk',
  'application', 'sa', 'priv', 'fernet', 'aes', 'cipher', 'crypto', 'openai', 'anthropic', 'groq', 'cohere', 'mistral', 'gemini', 'sendgrid', 'mailgun', 'cosmos', 'cosmosdb',
  // Vendors whose key a name gives by the vendor alone (STRIPE_KEY, CF_KEY), and ASP.NET's machineKey (validationKey, decryptionKey).
  'stripe', 'cf', 'cloudflare', 'twilio', 'slack', 'discord', 'datadog', 'sentry', 'algolia', 'pinecone', 'replicate', 'huggingface', 'hf',
  'resend', 'postmark', 'mailchimp', 'brevo', 'pagerduty', 'newrelic', 'honeycomb', 'shopify', 'paypal', 'plaid', 'okta', 'auth0',
  'notion', 'airtable', 'mixpanel', 'amplitude', 'vercel', 'netlify', 'supabase', 'firebase', 'heroku', 'digitalocean',
  'ai', 'validation', 'decryption', 'machine',
  // A service's key named by what it serves (MAIL_KEY, SMTP_KEY, SMS_KEY, MAPS_KEY, PUSH_KEY).
  'mail', 'email', 'smtp', 'sms', 'maps', 'push', 'payment', 'payments', 'billing', 'geocoding',
];

/** Words that may follow the sensitive word without changing what the name holds: DB_PASSWORD_PROD, JWT_SECRET_V2, SECRET_KEY_BASE. */
export const TRAILING_QUALIFIERS = [
  'prod', 'production', 'dev', 'development', 'staging', 'stage', 'test', 'testing', 'qa', 'uat', 'ci', 'local', 'live', 'sandbox', 'base', 'old', 'new', 'prev',
  'previous', 'current', 'next', 'primary', 'secondary', 'backup', 'main', 'default', 'value', 'val', 'plain', 'plaintext', 'raw', 'b64', 'base64', 'hex', 'enc',
  'encoded', 'str', 'string', 'override', 'admin', 'root', 'master', 'user', 'ro', 'rw', 'readonly', 'write', 'read', 'eu', 'us', 'internal', 'external',
  'global', 'env', 'var', 'alt', 'temp', 'tmp',
  'replica', 'replicas', 'release', 'svc', 'escaped', 'quoted', 'urlencoded', 'utf8', 'ascii', 'bytes',
];

/** Words after `url` or `uri` that make it an encoding, not an address: DB_PASSWORD_URL_ENCODED holds the password, URL-encoded. */
export const ENCODING_AFTER_URL = ['encoded', 'escaped', 'safe', 'quoted'];

/** Names whose values are identifiers or digests, never secrets, even when they look random (x-amz-id-2, nonce, integrity). */
export const NOT_SECRET_WORDS = [
  'id', 'ids', 'nonce', 'integrity', 'hash', 'digest', 'checksum', 'sha', 'sha1', 'sha256', 'sha512', 'md5', 'challenge', 'etag', 'request', 'trace', 'span',
  'commit', 'rev', 'revision', 'version', 'build', 'fingerprint', 'uuid', 'guid', 'kid', 'thumbprint', 'state', 'tag', 'ref', 'oid', 'sri', 'h1', 'cid',
  'x5t', 'public', 'pubkey', 'peer', 'bin', 'b64', 'base64', 'image', 'png', 'jpeg', 'gzip', 'release', 'ack', 'cursor', 'etag', 'continuation', 'page',
  // The WebSocket handshake's Sec-WebSocket-Key and -Accept: a nonce and its digest; wallet addresses are public.
  'websocket', 'socket', 'accept', 'address', 'addr',
  // Digest auth's opaque and cnonce; values shown as examples (`example output: "…"`).
  'opaque', 'cnonce', 'example', 'sample', 'demo', 'dummy', 'fake',
];

/**
 * Published example credentials: the test vectors of the RFCs and the well-known values vendors document as
 * examples. They are public by design (every reader of the spec has them), so they stay; each is named by its source.
 */
export const PUBLISHED_EXAMPLES: [string, string][] = [
  ['QWxhZGRpbjpvcGVuIHNlc2FtZQ==', 'RFC 7617 2 (Aladdin:open sesame)'],
  ['mF_9.B5f-4.1JqM', 'RFC 6750 2.1'],
  ['2YotnFZFEjr1zCsicMWpAA', 'RFC 6749 4.1.4 access token'], ['tGzv3JOkF0XG5Qx2TlKWIA', 'RFC 6749 4.1.4 refresh token'], ['SplxlOBeZQQYbYS6WxSbIA', 'RFC 6749 4.1.2 code'],
  ['dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk', 'RFC 7636 B code_verifier'], ['E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', 'RFC 7636 B code_challenge'],
  ['9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'RFC 8032 7.1 TEST 1 secret key'],
  ['AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow', 'RFC 7515 A.1 HMAC key'],
  ['dGhlIHNhbXBsZSBub25jZQ==', 'RFC 6455 1.3 Sec-WebSocket-Key'], ['s3pPLMBiTxaQ9kYGzzhZRbK+xOo=', 'RFC 6455 1.3 Sec-WebSocket-Accept'],
  ['GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', 'RFC 6238 test secret (base32)'],
  ['Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==', 'Azure Storage emulator (Azurite) well-known account key'],
  ['sk_test_4eC39HqLyjWDarjtT1zdp7dc', 'Stripe API docs test key'],
  ['eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c', 'jwt.io example token'],
];
const PUBLISHED = PUBLISHED_EXAMPLES.map(([v]) => v);

/** A found secret that is a published example or marks itself as one (…EXAMPLEKEY, xoxb-not-a-real-token). */
export function isPublishedExample(found: string): boolean {
  if (isExampleMarked(found)) return true;
  for (const v of PUBLISHED) if (found.includes(v)) return true;
  return false;
}

/**
 * Keys that vendors issue to be published (in web pages and apps): whatever name a table or a config gives them,
 * they are no secret. Stripe's publishable keys (the secret and restricted ones are sk_ and rk_), Mapbox's public
 * tokens (the secret ones are sk.).
 */
const PUBLIC_KEY_SHAPES = [/^pk_(?:live|test)_[A-Za-z0-9]{16,255}$/, /^pk\.eyJ[A-Za-z0-9_-]{10,400}\.[A-Za-z0-9_-]{10,200}$/];

export function isPublicKey(found: string): boolean {
  return PUBLIC_KEY_SHAPES.some((re) => re.test(found));
}

/**
 * Values of a known shape that are no secret, whatever detector found them: a subresource-integrity digest
 * (package-lock's `sha512-…`), an OpenAI object's id (`file-…`, `asst_…`, `thread_…`, `chatcmpl-…`; its keys are `sk-`).
 */
const NOT_SECRET_SHAPES = [/^sha(?:256|384|512)-[A-Za-z0-9+/]{40,90}={0,2}$/, /^(?:file|asst|thread|run|msg|step|batch|vs|chatcmpl|cmpl|ftjob|modr|resp|org|proj|user)[-_][A-Za-z0-9]{16,48}$/];

export function isKnownNotSecret(found: string): boolean {
  return NOT_SECRET_SHAPES.some((re) => re.test(found));
}

/** A Sealed Secret's encrypted value (base64 from `Ag`, its version byte, under `encryptedData:`): ciphertext only its cluster can open. */
export function isSealedCiphertext(found: string, text: string): boolean {
  return found.length >= 64 && /^Ag[A-Za-z0-9+/]+={0,2}$/.test(found) && textHas(text, 'sealed');
}

// Facts about the whole text that per-span checks ask: asked again for every span, a scan of the text each time
// made a text with many spans quadratic (a 512 KB line of literals took 4 s); computed once per text instead.
let factsOf: string | undefined;
const facts = new Map<string, boolean>();
const TEXT_FACTS: Record<string, (text: string) => boolean> = {
  sealed: (t) => t.includes('encryptedData') && t.includes('SealedSecret'),
  'template-expression': (t) => t.includes('{{'),
  'rails-encrypted': (t) => t.includes('.enc') && /(?:credentials|secrets)(?:\/[\w-]{1,40})?\.yml\.enc\b/.test(t),
};
export function textHas(text: string, fact: keyof typeof TEXT_FACTS): boolean {
  if (factsOf !== text) {
    factsOf = text;
    facts.clear();
  }
  let v = facts.get(fact);
  if (v === undefined) facts.set(fact, (v = TEXT_FACTS[fact](text)));
  return v;
}

/**
 * Rails' encrypted credentials file (`config/credentials.yml.enc`: ciphertext--iv--tag, each base64), shown where the
 * text names such a file: ciphertext the master key opens, committed by design. (The same shape in a cookie is a session.)
 */
export function isRailsEncryptedFile(text: string, start: number, end: number): boolean {
  if (!textHas(text, 'rails-encrypted')) return false;
  let a = start;
  let b = end;
  while (a > 0 && a > start - 8192 && !/\s/.test(text[a - 1])) a--;
  while (b < text.length && b < end + 8192 && !/\s/.test(text[b])) b++;
  return /^[A-Za-z0-9+/]{16,}={0,2}--[A-Za-z0-9+/]{16,}={0,2}--[A-Za-z0-9+/]{16,}={0,2}$/.test(text.slice(a, b));
}

/** Exact values that stand for a secret without being one (.env.example, docs). */
export const PLACEHOLDER_VALUES = [
  'password', 'passwd', 'pass', 'secret', 'token', 'changeme', 'change_me', 'changeit', 'example', 'sample', 'dummy', 'test', 'testing', 'todo', 'tbd', 'fixme',
  'replace_me', 'replaceme', 'null', 'none', 'nil', 'undefined', 'true', 'false', 'redacted', 'hidden', 'masked', 'placeholder', 'foo', 'bar', 'foobar',
  'value', 'empty', 'default', 'required', 'optional', 'string', 'str', 'secret_value', 'mysecret', 'mypassword', 'my_password', 'my_secret', 'my_token',
  'supersecret', 'api_key', 'apikey', 'access_token', 'your_token', 'xxx', 'yyy', 'zzz', 'abc', 'abc123', 'pass123', 'password123', 'secret123', 'mytoken',
  'env', 'set', 'unset', 'prompt', 'stdin', 'ask', 'file', 'auto', 'yes', 'no', 'on', 'off', 'sensitive', 'sensitive value', 'known after apply', 'not set',
  // Consul's anonymous token and Ansible's undefined variable, as they print them.
  'anonymous', 'variable is not defined!',
];

const SENSITIVE_WORD_SET = new Set(SENSITIVE_WORDS);
const SENSITIVE_LAST_SET = new Set(SENSITIVE_LAST_WORDS);
const NOT_AFTER_SET = new Set(NOT_SECRET_AFTER);
const SENSITIVE_NAME_SET = new Set(SENSITIVE_NAMES);
const KEY_QUALIFIER_SET = new Set(KEY_QUALIFIERS);
const TRAILING_SET = new Set(TRAILING_QUALIFIERS);
const NOT_BEFORE_SET = new Set(NOT_SECRET_BEFORE);
const NOT_SECRET_SET = new Set(NOT_SECRET_WORDS);
const ENCODING_AFTER_URL_SET = new Set(ENCODING_AFTER_URL);
const PLACEHOLDER_SET = new Set(PLACEHOLDER_VALUES);
/** Longest placeholder value. */
const MAX_PLACEHOLDER = Math.max(...PLACEHOLDER_VALUES.map((v) => v.length));

/** A table of the given characters, for a first- or last-character test (ASCII letters in both cases when `anyCase`). */
function charTable(chars: string, anyCase = false): Uint8Array {
  const t = new Uint8Array(65536);
  for (const c of anyCase ? chars.toLowerCase() + chars.toUpperCase() : chars) t[c.charCodeAt(0)] = 1;
  return t;
}
// What isPlaceholder strips from a value's edges before looking it up: <{[(_*- before, >})]_*-,; after (None, in a Debug dump).
const LEADING_EDGE = charTable('<{[(_*-');
const TRAILING_EDGE = charTable('>})]_*-,;');

/** Words of a name: camelCase, kebab-case, snake_case and dots all split; lower case. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    // Letters of any script: a name may be written in Cyrillic or CJK (`пароль`).
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

const PLURAL_PASSWORDS = new Set(['passwords', 'passphrases', 'passwds']);
// Not auth0 (a vendor's name: AUTH0_DOMAIN, withAuth0).
const GLUED_NUMBER = /(?<=[a-z]{2})(?<!auth)\d{1,3}$/;
const GLUED = /(?:password|passwd|passphrase|secret|token|apikey|authtoken|authkey|accesskey|writekey|secretkey|privatekey|storepass|keypass|(?:db|pg|root|admin|user|sql|smtp|mail|ftp|ldap|redis|require|trust|master)(?:pass|pwd|pw)|(?:api|auth|access|bearer|refresh|session)tok)$/;

/** Is the word at i a sensitive word (alone, glued, or "<qualifier> key")? `strong` words count anywhere in a name. */
function sensitiveAt(words: string[], i: number): 'strong' | 'last' | undefined {
  // smtpPassword2, password2, token3: a number glued to the word counts it, as a _2 after it would.
  const glued = GLUED_NUMBER.test(words[i]) ? words[i].replace(GLUED_NUMBER, '') : words[i];
  // The plural of a password names a list of them (Helm's auth.passwords[0]); tokens and secrets are as often counts (max_tokens).
  const w = PLURAL_PASSWORDS.has(glued) ? glued.slice(0, -1) : glued;
  if (SENSITIVE_WORD_SET.has(w)) return w === 'pwd' && words.length === 1 ? 'last' : 'strong';
  if (SENSITIVE_LAST_SET.has(w)) {
    // "pass" and "auth" alone are too common as words (pass=1, auth=oauth2); they count after another word (DB_PW, db_pass).
    if (words.length === 1 && (w === 'auth' || w === 'sig' || w === 'pat')) return undefined;
    return 'last';
  }
  if (GLUED.test(w) && !/secretary$/.test(w)) return 'strong';
  if (w === 'key' && i > 0 && KEY_QUALIFIER_SET.has(words[i - 1])) return 'strong';
  // An HTTP header of one's own ending in Key (X-Upstream-Key, X-Partner-Key): what such a header carries is a key.
  if (w === 'key' && i === words.length - 1 && i >= 2 && words[0] === 'x') return 'strong';
  // AZURE_STORAGE_CONNECTION_STRING, primaryConnectionString: a connection string holds its credentials.
  if (w === 'string' && i > 0 && words[i - 1] === 'connection') return 'strong';
  return undefined;
}

/** Words before `token` that make it a place in a listing (page_token, nextPageToken, AWS's NextToken, sync_token), not a credential. */
const PAGINATION_WORDS = new Set(['page', 'next', 'prev', 'previous', 'continuation', 'pagination', 'resume', 'sync', 'cursor', 'paging']);

function sensitiveName(name: string): boolean {
  const words = nameWords(name);
  if (words.length === 0) return false;
  if (words.length > 1 && words[words.length - 1] === 'token' && words.slice(0, -1).every((w) => PAGINATION_WORDS.has(w))) return false;
  // Confluent's basic.auth.user.info (and the like): KEY:SECRET.
  if (words.length >= 3 && words[words.length - 3] === 'auth' && words[words.length - 2] === 'user' && words[words.length - 1] === 'info') return true;
  if (SENSITIVE_NAME_SET.has(words.join('_'))) return true;
  if (words.length > 1 && NOT_BEFORE_SET.has(words[0])) return false;
  // From the end: qualifiers may follow any sensitive word; other words may follow a strong one unless they change the meaning.
  let onlyQualifiers = true;
  for (let i = words.length - 1; i >= 0; i--) {
    const kind = sensitiveAt(words, i);
    if (kind === 'strong' || (kind === 'last' && onlyQualifiers)) return true;
    const w = words[i];
    const encoding = (w === 'url' || w === 'uri') && i + 1 < words.length && ENCODING_AFTER_URL_SET.has(words[i + 1]);
    if ((NOT_AFTER_SET.has(w) && !encoding) || (w === 'key' && i + 1 < words.length && words[i + 1] === 'id')) return false;
    if (encoding) continue;
    if (!(TRAILING_SET.has(w) || /^v?\d{1,3}$/.test(w))) onlyQualifiers = false;
  }
  return false;
}

/**
 * Literal needles, one of which every sensitive name holds (lower-cased): a name holding none is
 * not sensitive, decided without splitting it into words. Derived from the tables above.
 */
function needlesOf(words: string[]): string[] {
  const all = [...new Set(words.filter((w) => /^[a-z0-9]{2,}$/.test(w)))];
  return all.filter((w) => !all.some((o) => o !== w && w.includes(o)));
}

/** Needles as a table of their first two (lower-case) characters, tested in place in the text. */
class NeedleSet {
  private readonly first = new Uint8Array(128 * 128);
  private readonly byPair = new Map<number, string[]>();
  constructor(readonly needles: string[]) {
    for (const n of needles) {
      const key = n.charCodeAt(0) * 128 + n.charCodeAt(1);
      this.first[key] = 1;
      this.byPair.set(key, [...(this.byPair.get(key) ?? []), n]);
    }
  }
  /** Does text[start, end) hold a needle, ASCII letters compared case-insensitively (name characters only)? */
  inText(text: string, start: number, end: number): boolean {
    for (let i = start; i + 1 < end; i++) {
      const c0 = text.charCodeAt(i) | 32;
      const c1 = text.charCodeAt(i + 1) | 32;
      if (c0 > 127 || c1 > 127 || this.first[c0 * 128 + c1] === 0) continue;
      for (const n of this.byPair.get(c0 * 128 + c1)!) {
        if (i + n.length > end) continue;
        let k = 2;
        while (k < n.length && (text.charCodeAt(i + k) | 32) === n.charCodeAt(k)) k++;
        if (k === n.length) return true;
      }
    }
    return false;
  }
}

// Every sensitive name holds a sensitive word, a GLUED ending (each holds pass, secret, token or key),
// `key` after a qualifier, or the longest word of a whole sensitive name.
const SENSITIVE_NEEDLES = new NeedleSet(
  needlesOf([
    ...SENSITIVE_WORDS,
    ...SENSITIVE_LAST_WORDS,
    'pass', 'secret', 'token', 'key',
    ...SENSITIVE_NAMES.map((n) => n.split('_').sort((a, b) => b.length - a.length)[0]),
  ]),
);
/** The needles, for the screen's build-time data (screen-data.ts). */
export const SENSITIVE_NEEDLE_LIST: readonly string[] = SENSITIVE_NEEDLES.needles;
const NOT_SECRET_NEEDLES = new NeedleSet(needlesOf(NOT_SECRET_WORDS));

/** False when the ASCII name text[start, end) cannot be sensitive (no needle in it); true means: ask isSensitiveName. */
export function maybeSensitiveName(text: string, start: number, end: number): boolean {
  return SENSITIVE_NEEDLES.inText(text, start, end);
}

/** False when the ASCII name text[start, end) cannot be an identifier name; true means: ask isNotSecretName. */
export function maybeNotSecretName(text: string, start: number, end: number): boolean {
  return NOT_SECRET_NEEDLES.inText(text, start, end);
}

const nameMemo = new Map<string, boolean>();

/** Does this name (assignment, JSON member, flag, header) hold a secret? */
export function isSensitiveName(name: string): boolean {
  let v = nameMemo.get(name);
  if (v === undefined) {
    v = sensitiveName(name);
    if (nameMemo.size < 4096) nameMemo.set(name, v);
  }
  return v;
}

/** A name that marks its value as an identifier or digest (spares look-alikes from the high-entropy rule). */
const notSecretMemo = new Map<string, boolean>();

export function isNotSecretName(name: string): boolean {
  let v = notSecretMemo.get(name);
  if (v === undefined) {
    v = nameWords(name).some((w) => NOT_SECRET_SET.has(w));
    if (notSecretMemo.size < 4096) notSecretMemo.set(name, v);
  }
  return v;
}

// The value patterns below are module constants, not literals in the functions: a literal is a new
// RegExp object each time the function runs (isPlaceholder had a dozen, about 500 bytes per value
// judged), and tool output can hold tens of thousands of values per megabyte.
const URL_VALUE = /^[a-z][a-z0-9+.-]{1,20}:\/\//i;
const PWD_NAME = /^(?:pwd|oldpwd)$/i;
const PATH_VALUE = /^(?:[/~.]|[A-Za-z]:[\\/]|\$)/;

/** `PWD` alone is the shell's working directory: a password only when the value is not a path. */
export function isSensitiveAssignment(name: string, value: string): boolean {
  if (!isSensitiveName(name)) return false;
  // A URL's password is judged by the URL rule (postgres://user:password@localhost is a placeholder).
  if (URL_VALUE.test(value)) return false;
  if (PWD_NAME.test(name) && PATH_VALUE.test(value)) return false;
  if (NOT_A_VALUE.test(value) || isFilePath(value)) return false;
  // The name spelled as its value (RefreshToken = 'refresh_token', ACCESS_TOKEN = "access_token"): an identifier.
  if (value.length <= 64 && /^[A-Za-z][\w.-]*$/.test(value) && nameWords(value).join('_') === nameWords(name).join('_')) return false;
  // The name of the key a password is kept under, not the password (Helm's `adminPasswordKey: postgres-password`,
  // `passwordSecretKeyRef: db-creds`): a name that ends in key, ref or name after the password's word, a lower-case identifier.
  if (KEY_REFERENCE.test(value) && PASSWORD_KEY_NAME.test(name)) return false;
  // A webhook's signature is a digest of one payload (sha256=…, t=…,v1=…): it proves, it does not open anything.
  if (SIGNATURE_NAME.test(name) && SIGNATURE_DIGEST.test(value)) return false;
  // The name or ARN of a stored secret (AWS's SecretId="prod/orders/db"), not its value: an id given a path.
  if (ID_NAME.test(name) && SECRET_PATH.test(value)) return false;
  // Facebook's numeric appid is public; OpenWeather's hex one is a key.
  if (DIGITS_ONLY.test(value) && APPID.test(name)) return false;
  // A message about the secret (Android's "Password must be at least 8 characters"): words, one of them the secret's own word.
  if (isMessageAbout(value)) return false;
  return !isPlaceholder(value);
}

const DIGITS_ONLY = /^\d+$/;
const ID_NAME = /(?:^|[_.-]|[a-z])(?:Id|ID|_id|-id|\.id)$|^id$/;
const SECRET_PATH = /^(?:arn:[\w-]{1,20}:|[A-Za-z][\w.-]{0,63}\/[\w./-]{1,200}$)/;

/** A version, a version range, a comment's slashes or an option: no value a secret's name could hold. */
export function isVersionOrOption(v: string): boolean {
  return NOT_A_VALUE.test(v);
}
const KEY_REFERENCE = /^[a-z][a-z0-9]{0,30}(?:[-_][a-z0-9]{1,30}){1,5}$/;
const PASSWORD_KEY_NAME = /pass(?:word|wd)?[-_.]?(?:secret[-_.]?)?(?:key|ref|name|field)$/i;
export const SIGNATURE_NAME = /sig(?:nature)?(?:[-_]?(?:256|sha256|v\d))?$/i;
export const SIGNATURE_DIGEST = /^(?:t=\d{1,12},)?(?:v\d|sha(?:1|256|512))=[0-9a-f]{32,128}(?:,(?:v\d|sha(?:1|256|512))=[0-9a-f]{32,128}){0,4}$/i;
const APPID = /app_?id$/i;
const SECRET_WORD_IN_PROSE = /\b(?:password|passphrase|passcode|token|secret|api key|key|credentials?|pin)\b/i;
// Words of prose: letters (or a number alone) and punctuation; a word that mixes letters and digits (nzsd0) is a passphrase's.
const PROSE_WORDS = /^[A-Za-z][A-Za-z'’,.!?-]*(?: (?:[A-Za-z][A-Za-z'’,.!?-]*|\d{1,4}[,.!?]?|\{\{ ?\w{1,30} ?\}\}[,.!?]?|\{\w{1,30}\}[,.!?]?|%[sd][,.!?]?))+$/;
/** Two or more words. */
const TWO_WORDS = /^\S+ \S/;

/** Two or more words of prose that name a secret ("Confirm password"): a UI string or a message, not a passphrase (passphrases name no secret). */
export function isMessageAbout(v: string): boolean {
  return v.length <= 200 && TWO_WORDS.test(v) && PROSE_WORDS.test(v) && SECRET_WORD_IN_PROSE.test(v) && !/\b[A-Z]{3,}\b/.test(v.slice(1));
}

/** Image tags and versions (sealed-secrets-controller:0.27.0-debian-12-r2), the rest of a URL (credential.https://…). */
// Also a bare long option (kickstart's `rootpw --lock`, `--iscrypted`): the next option, not a value.
// A version or a version range (1.2, 9.0.2, v3.1.4-rc1, <=8.5.1, ^9.0.2, >=1.0, <2) is not a value; a decimal with more places than a version has (3.14159) may be one.
const NOT_A_VALUE = /^(?:(?:[<>]=?|[~^]|==) ?v?\d{1,4}(?:\.(?:\d{1,6}|x|\*)){0,3}(?:[-+][A-Za-z0-9.-]{1,40})?(?:,? ?[<>]=? ?\d{1,4}(?:\.\d{1,6}){0,3})?|v\d{1,4}(?:\.\d{1,6}){1,3}(?:[-+][A-Za-z0-9.-]{1,40})?|\d{1,4}\.\d{1,2}|\d{1,4}(?:\.\d{1,6}){2,3}(?:[-+][A-Za-z0-9.-]{1,40})?|\/\/\S{0,400}|--[a-z][a-z-]{1,40})$/;
const FILE_PATH = /^(?:~|\.{1,2})?\/(?:[\w.@-]{1,64}\/){0,20}[\w.@-]{1,64}\/?$/;
const RELATIVE_PATH = /^(?:~|\.{1,2})\//;
const SYSTEM_PATH = /^\/(?:var|etc|run|home|tmp|opt|usr|srv|mnt|root|Users|data|app|config|secrets|vault|certs?|keys)\//;
const FILE_EXTENSION = /\.[a-z]{2,5}$/;

/** A path to a file holding the secret (/var/secrets/key.json, ~/.cache/tokens), not the secret. */
export function isFilePath(v: string): boolean {
  if (!FILE_PATH.test(v)) return false;
  return RELATIVE_PATH.test(v) || SYSTEM_PATH.test(v) || FILE_EXTENSION.test(v);
}

const PROGRAM_MESSAGE = /\b(?:successfully|updated|changed|unchanged|failed|failure|expired|denied|incorrect|invalid|required|missing|not set|not found|mismatch|accepted|rejected|saved|removed|deleted|complete|completed|creating|destroying|destroyed|refreshing|reading)\b/i;

/** A program's message after a name (passwd: password updated successfully), not a passphrase. */
export function isProgramMessage(v: string): boolean {
  return v.includes(' ') && PROGRAM_MESSAGE.test(v);
}

// isPlaceholder's forms. Every form returns true, so their order does not matter; those anchored at an
// end are tried only when the value's first (or last) character is one they can start (or end) with:
// most values are plain, and each test skipped is a regex run saved. The tables hold ASCII only: /i
// without /u folds no other character onto an ASCII one.
const DOLLAR_BRACED = /^\$\$?\{[^{}\s]{1,80}\}$/;
const DOLLAR_NAME = /^\$\$?(?:[A-Z_][A-Z0-9_]{0,80}|[a-z_][a-z0-9_]{0,80})$/;
const COMMAND_SUBSTITUTION = /^\$\((?:[a-z][\w.-]{0,40}(?:\s|\)$|$)|[^)]{0,200}\s)/;
const DOLLAR_DEFAULT = /^\$\{[A-Za-z_]\w{0,80}:?[?+][^{}]{0,200}\}$/;
const SERVERLESS_REFERENCE = /^\$\{(?:env|ssm|file\(|self|opt|sls|cf|s3|param|aws|git|secrets|vault|awsKms|terraform|strToBool)[:(][^{}\s]{0,200}\}$/;
// A type where a value would be (TypeScript's `accessToken: string)`, Kotlin's `password: String,`).
const TYPE_ANNOTATION = /^(?:string|String|number|boolean|Boolean|any|unknown|never|void|object|bigint|symbol|Int|Long|CharArray|ByteArray|SecureString)(?:\[\]|\?)?(?:[),;|&>=\]{]|$)/;
// A fixture's fake: a word, then one character repeated (test_token_0000000000000000, fake-key-xxxxxxxxxxxx).
const ENV_NAME = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?=$|;)/;
const WORD_THEN_RUN = /^[A-Za-z][A-Za-z_-]{0,30}[_-]([0-9A-Za-z])\1{7,}$/;
const DOLLAR_WITH_DEFAULT = /^\$\{[A-Za-z_][\w.]{0,80}(?::-|:=|:|-|=)([^{}?+\s][^{}\s]{0,200})\}$/;
// A variable is named in one case (HOME, db_host): `$Falcon86//x` is a password that starts with a dollar.
const DOLLAR_IN_PATH = /^\$\{?(?:[A-Z_][A-Z0-9_]{0,80}|[a-z_][a-z0-9_]{0,80})\}?(?:[:.-]|\/(?!\/))[\w./:@${}-]{0,200}$/;
const DOLLAR_NAME_DASH = /^\$[A-Za-z_]\w{0,80}-/;
const DOLLAR_BRACED_THEN = /^\$\{[A-Za-z_]\w{0,80}\}[/:.-]/;
const TERRAFORM_CALL = /^\$\{[A-Za-z_][\w.]{0,40}\(/;
const DOLLAR_MACRO = /^\$\([A-Za-z_][\w.]{0,80}\)$/;
const GRAFANA_EXPANSION = /^\$__(?:file|env|vault)\{[^{}\s]{1,200}\}$/;
const SYMFONY_ENV = /^%env\([\w:.-]{1,80}\)%$/;
const URL_TEMPLATE = /^[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:@/]{1,64}:([^\s@/]{1,128})@[^\s@]{1,200}$/i;
// #{DB_PASSWORD} (Octopus) and #{DB_PASSWORD}# (Azure DevOps' replace tokens), @@X@@, __X__ or __set_via_user_secrets__.
const DEPLOY_TOKEN = /^(?:#\{[A-Za-z_][\w.:-]{0,80}\}#?|@@[A-Z][A-Z0-9_]{1,80}@@|__[A-Za-z][A-Za-z0-9_]{1,80}__)$/;
const HOME_ASSISTANT_TAG = /^!(?:secret|env_var|include)[ \t]{1,4}[A-Za-z_][\w./-]{0,80}$/;
// %NAME% (Windows), %{name} (Ruby, fluentd, Logstash interpolation).
const PERCENT_NAME = /^%(?:[A-Za-z_][A-Za-z0-9_]{0,80}%|\{[A-Za-z_][\w.]{0,80}\})$/;
const PERCENT_FORMAT = /^%\([A-Za-z_]\w{0,80}\)[sdr]$/;
const PERCENT_DIRECTIVE = /^%[sdr]$/;
const ANGLE_TEMPLATE = /^<[^<>]{1,80}>$/;
const DOUBLE_BRACE_TEMPLATE = /^\{\{[^{}]{1,120}\}\}$/;
const BRACE_NAME = /^\{[ \t]{0,2}[A-Za-z_.$][A-Za-z_.:| $-]{0,80}[ \t]{0,2}\}$/;
const BRACE_MEMBER = /^\$?\{[ \t]{0,2}[A-Za-z_][\w.]{0,80}[ \t]{0,2}\}$/;
const THREE_DIGITS = /\d{3}/;
const BRACKET_TEMPLATE = /^\[[^\[\]]{1,80}\]$/;
const PAREN_WORDS = /^\([A-Za-z][A-Za-z _-]{0,40}\)$/;
const POWERSHELL_READ = /^\((?:Get-[A-Z][A-Za-z]{1,40}|Read-Host)\b[^'"()]{0,200}\)$/;
const AWS_DOCS_KEY = /EXAMPLE(?:KEY)?$/;
/**
 * A value marked as an example in itself: EXAMPLE in capitals anywhere (AWS's docs put it inside keys and session
 * tokens), or words that say so between separators (xoxb-not-a-real-token, AIza…-DO-NOT-USE, glrt-EXAMPLE-…, fake_key).
 */
const EXAMPLE_CAPS = /EXAMPLE/;
const EXAMPLE_WORDS = /(?:^|[-_.:/ ])(?:not[-_ ]?a[-_ ]?real|not[-_ ]?real|do[-_ ]?not[-_ ]?use|fake|dummy|sample|example)(?:$|[-_.:/ ])/i;
export const isExampleMarked = (s: string) => EXAMPLE_CAPS.test(s) || EXAMPLE_WORDS.test(s);
const PREFIXED_TEMPLATE = /^[\w.-]{0,20}<[A-Za-z][\w -]{0,40}>$/;
const FIXTURE_WORDS_FIRST = charTable('tmsfdwbie', true);
const FIXTURE_WORDS = /^(?:test|mock|stub|fake|dummy|wrong|bad|invalid|incorrect|sample|example)[_-][a-z]{2,20}(?:[_-][a-z]{2,20}){0,4}$/i;
const CODE_READ_FIRST = charTable('poisevcESgtR@');
const STATEMENT_END = /(?<=\))[;,]$/;
const AT_FILE = /^@(?:~|\.{1,2})?\/?[\w.-]{1,64}(?:\/[\w.-]{1,64}){0,20}$/;
const NAME_THEN_PATH = /^[\w.-]{1,64}:(?:~|\.{1,2})?\/[\w.@/-]{1,400}$/;
const CODE_READ = /^(?:std::env::var\(|env::var\(|System\.(?:fetch_env!?|get_env)\(|Deno\.env\.get\(|Bun\.env\.|process\.env|os\.environ|os\.getenv|import\.meta\.env|secrets\.|env\.|vars\.|config\.|settings\.|ENV\[|ENV\.fetch|System\.getenv|getenv\(|self\.|this\.|Rails\.application\.|@Microsoft\.KeyVault\(|ENC\[)/;
const MEMBER_CALL = /^(?:[A-Za-z_]\w{0,40}\.){1,6}[A-Za-z_]\w{0,40}\(/;
const CALL = /^[A-Za-z_][\w.]{0,80}\((?:[^()]{0,80})\)$/;
const DOTTED_MEMBER = /^(?:[a-z_][a-z0-9_]*\.)+[a-z_][a-z0-9_]*$/i;
/** A member read by key: request.headers["X-Api-Token"], os.environ['TOKEN'], config[:secret_key]. */
const MEMBER_SUBSCRIPT = /^(?:[A-Za-z_]\w{0,40}\.){0,6}[A-Za-z_]\w{0,40}(?:\[(?:"[^"\n]{1,80}"|'[^'\n]{1,80}'|:\w{1,40})\]){1,4}$/;
const DIGIT = /\d/;
const ONE_CHARACTER_RUN_FIRST = charTable('*x.0#-•', true);
const ONE_CHARACTER_RUN = /^(?:\*+|x+|\.+|0+|#+|-+|•+)$/i;
const MASK_RUN = /x{4,}$|\*{3,}|\.\.\./i;
const TRAILING_X_RUN = /x{4,}$/i;
const ASCII_DIGIT = /[0-9]/;
const INSTRUCTION_PREFIX_FIRST = charTable('yiepgrsfd', true);
const INSTRUCTION_PREFIX = /^(?:your|insert|enter|put|replace|paste|generate|example|sample|fake|dummy)[_-]/i;
const ASCII_LETTER = charTable('abcdefghijklmnopqrstuvwxyz', true);
const PREFIXED_INSTRUCTION = /^[a-z]{2,8}[_-](?:your|my|insert|enter|example|sample|fake|dummy)[_-][a-z_-]{0,60}$/i;
const PLACEHOLDER_SUFFIX_LAST = charTable('erdm', true);
const PLACEHOLDER_SUFFIX = /(?:[_-]here|[_-]goes[_-]here|placeholder|changeme|change[_-]me|replace[_-]?me|redacted|example\.com)$/i;
const CHANGE_ME = /change[-_ ]?(?:this|me|it)\b|replace[-_ ]?(?:this|me)\b|not[-_ ]for[-_ ]prod/i;
const YAML_TAG = /^!(?:Ref|Sub|GetAtt|ImportValue|FindInMap|Join|Select|Base64|If|Secret|Vault|Env|Var)[ \t]{1,4}[A-Za-z_][\w.:-]{0,80}$/;
const ANSIBLE_VAULT = /^!(?:vault|encrypted|sops)[ \t]{0,4}(?:[|>][+-]?)?$/i;

/**
 * A value that stands for a secret rather than being one. Values that start
 * with % or $ are secrets unless they are a whole variable reference
 * ($TOKEN, ${TOKEN}, %TOKEN%, %(token)s); & ; spaces and quotes make a value,
 * not a placeholder.
 */
const placeholderMemo = new Map<string, boolean>();

export function isPlaceholder(v: string): boolean {
  if (v.length > 96) return placeholder(v);
  let r = placeholderMemo.get(v);
  if (r === undefined) {
    r = placeholder(v);
    if (placeholderMemo.size >= 4096) placeholderMemo.clear();
    placeholderMemo.set(v, r);
  }
  return r;
}

/** A value shown with its middle masked: a prefix, `...` or `…`, and at most four characters (sk_live_...4242). */
const MASKED_MIDDLE = /^[\w-]{0,16}(?:\.{3}|\u2026)[\w]{0,4}$/;
/** ... or with its middle as a run of mask characters (sk_test_51H****…****qT7, gho_******): what a CLI shows of a secret. */
const MASKED_RUN = /^[\w-]{0,16}(?:\*{4,}|\u2022{4,})[\w]{0,6}$/;

function placeholder(v: string): boolean {
  if (MASKED_MIDDLE.test(v) || MASKED_RUN.test(v)) return true;
  // A statement's end is not part of the value (verifier = generateCodeVerifier();).
  const s = v.trim().replace(STATEMENT_END, '');
  if (s.length < 3) return true;
  if (s.includes('[REDACTED')) return true;
  // The reference and template forms each start with their own character: test only that one's patterns.
  const first = s[0];
  // Whole variable references and command substitutions.
  if (first === '$') {
    // Serverless Framework's variable sources (${ssm:/path}, ${env:NAME}, ${file(./x.yml):key}, ${self:custom.x}):
    // references, though they read like ${NAME:default}.
    if (SERVERLESS_REFERENCE.test(s)) return true;
    // ${NAME:default}, ${NAME:-default}, ${NAME-default}, ${NAME:=default} (Spring, Compose, shells): the default is a value.
    const withDefault = DOLLAR_WITH_DEFAULT.exec(s);
    if (withDefault) return placeholder(withDefault[1]);
    if (DOLLAR_BRACED.test(s) || DOLLAR_NAME.test(s)) return true;
    // $(cmd …), ${VAR:?message}, $HOME/path, ${HOST}:5432: a reference with text around it, not a value that starts with $.
    if (COMMAND_SUBSTITUTION.test(s) || s.startsWith('${{') || DOLLAR_DEFAULT.test(s)) return true;
    if (DOLLAR_IN_PATH.test(s) && !DOLLAR_NAME_DASH.test(s)) return true;
    if (DOLLAR_BRACED_THEN.test(s)) return true;
    if (TERRAFORM_CALL.test(s)) return true; // ${file("…")}: a Terraform function call
    // $(DB_PASSWORD): an Azure Pipelines macro or a Kubernetes env expansion; $__file{…}, $__env{…}: Grafana provisioning.
    if (DOLLAR_MACRO.test(s) || GRAFANA_EXPANSION.test(s)) return true;
  } else if (first === '`' && s[1] !== '$') return true; // a command substitution; PowerShell's `$ is an escaped dollar in the value
  else if (first === '%') {
    if (SYMFONY_ENV.test(s)) return true; // Symfony: %env(DATABASE_URL)%
    if (PERCENT_NAME.test(s) || PERCENT_FORMAT.test(s) || PERCENT_DIRECTIVE.test(s)) return true;
  } else if (first === '<' || first === '{' || first === '[' || first === '(') {
    // Templates: <your key>, {{ token }}, {token}, [hidden]; masks: (sensitive value), (hidden); PowerShell reads: (Get-Secret -Name X).
    // {token}, {api_key}: a name in braces; {AQAAAB…=} (an encrypted value) is not.
    if (ANGLE_TEMPLATE.test(s) || DOUBLE_BRACE_TEMPLATE.test(s) || BRACE_NAME.test(s) || BRACE_MEMBER.test(s) && !THREE_DIGITS.test(s) || BRACKET_TEMPLATE.test(s) || PAREN_WORDS.test(s)) return true;
    if (POWERSHELL_READ.test(s)) return true;
  }
  const c0 = s.charCodeAt(0);
  const last = s.charCodeAt(s.length - 1);
  // A URL template whose password is a placeholder (postgres://USER:PASSWORD@HOST:5432/DB).
  const url = s.includes('://') ? URL_TEMPLATE.exec(s) : null;
  if (url && placeholder(url[1])) return true;
  // Deploy-time token replacement: #{DB_PASSWORD} (Octopus), @@DB_PASSWORD@@, __DB_PASSWORD__ (replace-tokens tasks).
  if ((first === '#' || first === '@' || first === '_') && DEPLOY_TOKEN.test(s)) return true;
  if (MASKED.test(s)) return true;
  if (TYPE_ANNOTATION.test(s) || WORD_THEN_RUN.test(s)) return true;
  // A variable's name where its value would be (`read -rsp "Vault token: " VAULT_TOKEN`): a name, not a value.
  const envName = ENV_NAME.exec(s);
  if (envName && (envName[0].length === s.length || /^;\s/.test(s.slice(envName[0].length))) && isSensitiveName(envName[0])) return true;
  if ((last === 69 || last === 89) && AWS_DOCS_KEY.test(s)) return true; // AWS documentation keys (…EXAMPLE, …EXAMPLEKEY)
  if (isExampleMarked(s)) return true;
  if (first !== '$' && s.includes('${')) return true; // a template literal, built at run time (`session:${id}`), or cut inside one
  if (first === '@' && AT_FILE.test(s)) return true; // @file: the value is read from a file (vault kv put k=@f, curl -d @f)
  if (NAME_THEN_PATH.test(s)) return true; // name:path (systemd LoadCredential=db:/etc/credstore/db)
  if (last === 62 && PREFIXED_TEMPLATE.test(s)) return true; // pypi-<your-token>, sk-<key>
  if (alphabetRun(s)) return true; // docs examples: 123456:ABCdefGhIJKlmNoPQRsTUVwxyZ
  if (FIXTURE_WORDS_FIRST[c0] === 1 && FIXTURE_WORDS.test(s)) return true;
  // Code that reads the secret from elsewhere.
  if (CODE_READ_FIRST[c0] === 1 && CODE_READ.test(s)) return true;
  // Each test below that needs a character (a call's `(` or `)`, a member's `.`, a reference's `:`) is tried only when it is there.
  if (s.includes('(') && MEMBER_CALL.test(s)) return true; // a member call: ENV.fetch("X"), credentials.dig(:smtp
  if (last === 41 && CALL.test(s)) return true; // a call: getpass(), read_secret("x")
  if (s.length < 60 && s.includes('.') && DOTTED_MEMBER.test(s) && !DIGIT.test(s)) return true; // a dotted member: cfg.db.password
  if (last === 93 && MEMBER_SUBSCRIPT.test(s)) return true; // request.headers["X-Api-Token"]
  // The value without its edge characters (<token>, __secret__, -password-, (hidden)), in lower case: a placeholder value?
  // Only one as short as the longest placeholder, or with an edge to strip, can be.
  if (s.length <= MAX_PLACEHOLDER || LEADING_EDGE[c0] === 1 || TRAILING_EDGE[last] === 1) {
    let a = 0;
    while (a < s.length && LEADING_EDGE[s.charCodeAt(a)] === 1) a++;
    let b = s.length;
    while (b > a && TRAILING_EDGE[s.charCodeAt(b - 1)] === 1) b--;
    if (b - a <= MAX_PLACEHOLDER && PLACEHOLDER_SET.has(s.slice(a, b).toLowerCase())) return true;
  }
  if (ONE_CHARACTER_RUN_FIRST[c0] === 1 && ONE_CHARACTER_RUN.test(s)) return true;
  if (MASK_RUN.test(s) && !ASCII_DIGIT.test(s.replace(TRAILING_X_RUN, '').slice(-1))) return true;
  if (INSTRUCTION_PREFIX_FIRST[c0] === 1 && INSTRUCTION_PREFIX.test(s)) return true;
  if (ASCII_LETTER[c0] === 1 && PREFIXED_INSTRUCTION.test(s)) return true; // xoxb-your-bot-token
  if (PLACEHOLDER_SUFFIX_LAST[last] === 1 && PLACEHOLDER_SUFFIX.test(s)) return true;
  if (CHANGE_ME.test(s)) return true;
  if (first === '!' && HOME_ASSISTANT_TAG.test(s)) return true; // Home Assistant: !secret db_password
  if (first === '!' && (YAML_TAG.test(s) || ANSIBLE_VAULT.test(s))) return true; // YAML tags: CloudFormation !Ref DbPassword; Ansible Vault: ciphertext follows
  if ((s.includes(':') || s.startsWith('projects/')) && SECRET_REFERENCE.test(s)) return true;
  return placeholderWords(s);
}

/** A pointer into a secret manager (vault:secret/data/prod#password, op://vault/item/field, arn:aws:secretsmanager:…), not the secret: a scheme with `:`, or `projects/`. */
const SECRET_REFERENCE =
  /^(?:(?:vault|op|ssm|awssm|aws-sm|secretsmanager|sm|gsm|gcpsm|akv|azurekeyvault|keyvault|sops|doppler|infisical|ref\+[a-z]{2,12}|k8s|secret):(?:\/\/)?[\w./-]{1,200}(?:#[\w./-]{1,60})?|arn:aws[\w-]{0,12}:(?:secretsmanager|ssm):[\w:/+=.@-]{1,200}|projects\/[\w-]{1,80}\/secrets\/[\w./-]{1,120})$/;

/**
 * What a program prints instead of a secret: sizes (24 bytes), ages (about 2 days ago), masks with an ellipsis
 * (sk-…a1B2), type annotations in code (Optional[str] = None, string;, String @auth(...)).
 */
const MASKED =
  /^(?:\d{1,9} bytes|\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?|(?:about |over |almost |less than )?(?:an?|\d{1,4}) (?:second|minute|hour|day|week|month|year)s? ago|[^\s…]{0,40}…[^\s…]{0,40}|(?:Optional|Option|Maybe|Nullable)[\[<][\w\[\]<>, ]{1,40}[\]>](?: ?= ?(?:None|null|nil|undefined))?;?|\??(?:string|String|str|int|bool|boolean|number|bytes|SecretStr|SecretString|SecureString)[?!]?(?:;|,| ?= ?(?:None|null|nil|undefined|""|'');?| @[\w(): ,]{1,80}| ?\| ?(?:None|null|undefined);?))$/;

/** An ascending run of eight letters (abcdefgh in any case): an example key from the docs, not a random one. */
function alphabetRun(s: string): boolean {
  let run = 1;
  for (let i = 1; i < s.length; i++) {
    const a = s.charCodeAt(i - 1) | 32;
    const b = s.charCodeAt(i) | 32;
    if (a >= 97 && a <= 122 && b === a + 1) {
      if (++run >= 8) return true;
    } else run = 1;
  }
  return false;
}

/** Words that together stand for "put the real value here": CHANGE_ME_IN_PROD, YOUR_API_KEY_HERE, replace-me, <insert token>. */
const PLACEHOLDER_WORD_PAIRS = new Set(['change me', 'change this', 'change it', 'replace me', 'replace this', 'fill me', 'fill in', 'set me', 'put here', 'goes here', 'insert here']);
const PLACEHOLDER_WORDS = new Set(['changeme', 'changeit', 'insecure', 'notforproduction', 'replaceme', 'placeholder', 'example', 'dummy', 'redacted', 'notasecret', 'todo', 'fixme', 'tbd', 'xxx', 'xxxx']);

/**
 * A value made of words only (letters split by _ - . space or case), holding a placeholder word or
 * pair anywhere (CHANGE_ME_IN_PROD, Replace-Me-Before-Deploy, your_api_key_here, dummy_secret).
 * A digit or symbol makes a value: ChangeMe2024! stays a secret.
 */
const WORDS_ONLY = /^[A-Za-z][A-Za-z_. -]*$/;

function placeholderWords(s: string): boolean {
  if (s.length > 80 || !WORDS_ONLY.test(s)) return false;
  const words = nameWords(s);
  if (words.length === 0) return false;
  if (words[0] === 'your' || words[words.length - 1] === 'here') return true;
  for (let i = 0; i < words.length; i++) {
    if (PLACEHOLDER_WORDS.has(words[i])) return true;
    if (i + 1 < words.length && PLACEHOLDER_WORD_PAIRS.has(words[i] + ' ' + words[i + 1])) return true;
  }
  return false;
}

/**
 * Base64 of `user:secret` (HTTP Basic, docker config.json `auth`, .npmrc `_auth`): a credential
 * whatever the name around it, when it decodes to printable text with a colon and a non-empty secret.
 */
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
// The user part holds no quote or bracket: base64 of JSON ({"region":"eu"}) is data, not user:secret.
const PRINTABLE_USER_SECRET = /^[\x21\x23-\x39\x3b-\x5a\x5c\x5e-\x7a\x7c\x7e]{1,128}:[\x20-\x7e]{1,512}$/;

export function isBasicCredential(v: string): boolean {
  if (v.length < 8 || v.length > 1024 || v.length % 4 !== 0 || !BASE64.test(v)) return false;
  const decoded = Buffer.from(v, 'base64').toString('latin1');
  return PRINTABLE_USER_SECRET.test(decoded) && !isPlaceholder(decoded.slice(decoded.indexOf(':') + 1));
}

/** A test runner's result line (jest and vitest print `PASS src/app.test.ts`): a file, not a password. */
export const TEST_RESULT = /^[ \t]{0,8}PASS[ \t]{1,4}(?:\.{0,2}\/)?[\w@.-]{1,100}(?:\/[\w@.[\]()-]{1,100}){0,20}\.[A-Za-z]{1,6}\b/;
