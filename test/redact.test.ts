import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../src/ledger/canonical';
import { redact, redactText } from '../src/ledger/redact';

// Deterministic fake key material: format-valid, never a real credential.
let seed = 20261130;
function rnd(): number {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
}
function pick(alphabet: string, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(rnd() * alphabet.length)];
  return s;
}
const UP = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOW = 'abcdefghijklmnopqrstuvwxyz';
const DIG = '0123456789';
const ALNUM = UP + LOW + DIG;
const HEX = '0123456789abcdef';
const B64 = ALNUM + '+/';
const URLSAFE = ALNUM + '-_';
/** Random text guaranteed to mix upper, lower and digits, like real keys. */
const mixed = (n: number, alphabet = ALNUM) => pick(UP, 1) + pick(LOW, 1) + pick(DIG, 1) + pick(alphabet, n - 3);
const pem = (label: string) => `-----BEGIN ${label}-----\n${pick(B64, 64)}\n${pick(B64, 64)}\n${pick(B64, 20)}=\n-----END ${label}-----`;
const jwt = () => `eyJ${pick(URLSAFE, 30)}.eyJ${pick(URLSAFE, 60)}.${pick(URLSAFE, 43)}`;

/** [label, text, the secret part that must disappear] */
const SECRETS: [string, string, string][] = [];
function secret(label: string, make: (s: string) => string, value: string): void {
  SECRETS.push([label, make(value), value]);
}

secret('aws access key id', (v) => `aws configure set aws_access_key_id ${v}`, 'AKIA' + pick(UP + DIG, 16));
secret('aws temporary key id', (v) => `{"AccessKeyId": "${v}"}`, 'ASIA' + pick(UP + DIG, 16));
secret('aws secret in ini', (v) => `aws_secret_access_key = ${v}`, mixed(40, B64));
secret('aws secret env', (v) => `AWS_SECRET_ACCESS_KEY=${v} aws s3 ls`, mixed(40, B64));
secret('aws session token env', (v) => `export AWS_SESSION_TOKEN=${v}`, mixed(120, B64));
secret('gcp api key', (v) => `curl "https://maps.googleapis.com/api?key=${v}"`, 'AIza' + pick(URLSAFE, 35));
secret('gcp oauth token', (v) => `gcloud auth print-access-token -> ${v}`, 'ya29.' + pick(URLSAFE, 80));
secret('gcp service account key', (v) => `{"type": "service_account", "private_key": "${v.replace(/\n/g, '\\n')}"}`, pem('PRIVATE KEY'));
secret('google oauth client secret', (v) => `client secret is ${v}`, 'GOCSPX-' + pick(URLSAFE, 28));
secret('azure storage account key', (v) => `DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${v};EndpointSuffix=core.windows.net`, mixed(86, B64) + '==');
secret('azure sas signature', (v) => `https://acme.blob.core.windows.net/c/f.txt?sv=2022-11-02&sp=r&sig=${v}`, mixed(43, B64) + '%3D');
secret('azure client secret', (v) => `AZURE_CLIENT_ID=abc ${v}`, 'Ab1' + '8Q~' + mixed(34, ALNUM + '_~.-'));
secret('github classic pat', (v) => `git clone https://github.com/org/repo && gh auth login --with-token <<< ${v}`, 'ghp_' + mixed(36));
secret('github oauth token', (v) => `token: "${v}"`, 'gho_' + mixed(36));
secret('github app token', (v) => `GH ${v}`, 'ghs_' + mixed(36));
secret('github refresh token', (v) => `refresh ${v}`, 'ghr_' + mixed(36));
secret('github fine-grained pat', (v) => `echo ${v} | gh auth login --with-token`, 'github_pat_' + mixed(82, ALNUM + '_'));
secret('gitlab pat', (v) => `curl --header "PRIVATE-TOKEN: ${v}" https://gitlab.example.com/api/v4/projects`, 'glpat-' + mixed(20, URLSAFE));
secret('gitlab runner token', (v) => `gitlab-runner register --token ${v}`, 'glrt-' + mixed(20, URLSAFE));
secret('slack bot token', (v) => `SLACK_BOT=${v}`, 'xoxb-' + pick(DIG, 12) + '-' + pick(DIG, 13) + '-' + mixed(24));
secret('slack user token', (v) => `slack token ${v}`, 'xoxp-' + pick(DIG, 12) + '-' + pick(DIG, 12) + '-' + pick(DIG, 13) + '-' + pick(HEX, 32));
secret('slack webhook', (v) => `curl -X POST ${v} -d '{"text":"hi"}'`, 'https://hooks.slack.com/services/T' + pick(UP + DIG, 8) + '/B' + pick(UP + DIG, 10) + '/' + mixed(24));
secret('stripe live secret key', (v) => `stripe.api_key = "${v}"`, 'sk_live_' + mixed(24));
secret('stripe restricted key', (v) => `STRIPE=${v}`, 'rk_live_' + mixed(24));
secret('stripe webhook secret', (v) => `endpoint secret ${v}`, 'whsec_' + mixed(32));
secret('openai project key', (v) => `OPENAI=${v}`, 'sk-proj-' + mixed(64, URLSAFE));
secret('openai legacy key', (v) => `openai.api_key = '${v}'`, 'sk-' + mixed(48));
secret('anthropic key', (v) => `curl https://api.anthropic.com/v1/messages -H "x-api-key: ${v}"`, 'sk-ant-api03-' + mixed(93, URLSAFE));
secret('npm token', (v) => `//registry.npmjs.org/:_authToken=${v}`, 'npm_' + mixed(36));
secret('pypi token', (v) => `twine upload -p ${v} dist/*`, 'pypi-AgEIcHlwaS5vcmc' + mixed(60, URLSAFE));
secret('huggingface token', (v) => `huggingface-cli login --token ${v}`, 'hf_' + pick(UP + LOW, 34));
secret('sendgrid key', (v) => `SENDGRID=${v}`, 'SG.' + pick(URLSAFE, 22) + '.' + pick(URLSAFE, 43));
secret('twilio api key', (v) => `twilio api key ${v}`, 'SK' + pick(HEX, 32));
secret('digitalocean token', (v) => `doctl auth init -t ${v}`, 'dop_v1_' + pick(HEX, 64));
secret('shopify token', (v) => `X-Shopify-Access-Token: ${v}`, 'shpat_' + pick(HEX, 32));
secret('mailgun key', (v) => `mailgun ${v}`, 'key-' + pick(LOW + DIG, 32));
secret('jwt in header', (v) => `fetch(url, {headers: {Authorization: 'JWT ${v}'}})`, jwt());
secret('jwt in cookie', (v) => `Cookie: session=${v}; Path=/`, jwt());
secret('rsa private key', (v) => `cat > key.pem <<EOF\n${v}\nEOF`, pem('RSA PRIVATE KEY'));
secret('openssh private key', (v) => v, pem('OPENSSH PRIVATE KEY'));
secret('ec private key', (v) => `key: |\n  ${v}`, pem('EC PRIVATE KEY'));
secret('encrypted private key', (v) => v, pem('ENCRYPTED PRIVATE KEY'));
secret('https url credentials', (v) => `git clone https://deploy:${v}@git.example.com/org/repo.git`, mixed(20));
secret('postgres url password', (v) => `DATABASE_URL=postgres://admin:${v}@db.internal:5432/app`, 'Sup3r' + pick(LOW, 8));
secret('postgres password with @', (v) => `psql postgresql://app:${v}@10.0.0.5/app`, 'p@ss' + pick(ALNUM, 8));
secret('redis url empty user', (v) => `redis://:${v}@cache:6379/0`, 'r3dis' + pick(ALNUM, 10));
secret('mysql url', (v) => `mysql://root:${v}@localhost/db`, 'hunter2' + pick(DIG, 3));
secret('bearer header', (v) => `curl -H "Authorization: Bearer ${v}" https://api.example.com`, mixed(40, URLSAFE));
secret('basic auth header', (v) => `Authorization: Basic ${v}`, 'dXNlcjpw' + pick(B64, 20) + '==');
secret('env password', (v) => `DB_PASSWORD=${v} npm run migrate`, 'hunter2hunter2');
secret('json password', (v) => `{"username": "admin", "password": "${v}"}`, 'CorrectHorse9!');
secret('yaml api key', (v) => `api_key: '${v}'`, 'plainsecretvalue');
secret('export token', (v) => `export GITHUB_TOKEN=${v}`, mixed(40));
secret('client secret', (v) => `client_secret=${v}&grant_type=client_credentials`, mixed(30));
secret('rails secret key base', (v) => `SECRET_KEY_BASE=${v}`, pick(HEX, 128));
secret('cli password flag', (v) => `docker login --username ci --password=${v} registry.example.com`, 'Pa55word' + pick(DIG, 4));
secret('mysql -p flag', (v) => `mysql -u root -p${v} app_db < dump.sql`, 'S3cretPass');
secret('pgpassword', (v) => `PGPASSWORD=${v} psql -h db -U app`, 'pgpass' + pick(DIG, 6));
secret('sshpass', (v) => `sshpass -p '${v}' ssh deploy@host`, 'ssh' + pick(ALNUM, 10));
secret('redis-cli -a', (v) => `redis-cli -h cache -a ${v} ping`, 'redispw' + pick(DIG, 5));
secret('generic high-entropy assignment', (v) => `SOME_VALUE=${v}`, mixed(32));
secret('token in query string', (v) => `https://api.example.com/v1/items?token=${v}&page=2`, mixed(32));
secret('password in prose', (v) => `The new Password: ${v}`, 'Tr0ub4dor&3x');
secret('dotenv secret', (v) => `JWT_SECRET="${v}"`, 'my-jwt-signing-secret');

const LOOKALIKES: [string, string][] = [
  ['commit hash', `git show ${pick(HEX, 40)}`],
  ['short sha', `git revert ${pick(HEX, 7)}`],
  ['sha256 digest', `sha256sum: ${pick(HEX, 64)}  dist/app.tar.gz`],
  ['uuid', 'request_id=3f2504e0-4f89-11d3-9a0c-0305e82c3301'],
  ['uuid in json', '{"id": "123e4567-e89b-12d3-a456-426614174000"}'],
  ['base64 image', `<img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==">`],
  ['password reset url', 'password_reset_url=https://example.com/account/reset'],
  ['token count', 'token_count=512'],
  ['max tokens', 'max_tokens: 4096'],
  ['token limit', 'TOKEN_LIMIT=1000'],
  ['secret file name', 'ls config/secret_santa_list.txt'],
  ['api key header name', 'api_key_header: X-API-Key'],
  ['password min length', 'PASSWORD_MIN_LENGTH=12'],
  ['path export', 'export PATH=/usr/local/bin:$PATH'],
  ['node env', 'NODE_ENV=production npm start'],
  ['placeholder var', 'password: ${DB_PASSWORD}'],
  ['placeholder dollar', 'password=$PASSWORD'],
  ['placeholder angle', '{"password": "<your password here>"}'],
  ['env reference in code', 'const token = process.env.GITHUB_TOKEN;'],
  ['github actions secret ref', 'token: ${{ secrets.GITHUB_TOKEN }}'],
  ['https remote', 'git remote add origin https://github.com/acme/widgets.git'],
  ['ssh remote', 'git@github.com:acme/widgets.git'],
  ['localhost url', 'curl http://localhost:3000/api/users?page=2&sort=desc'],
  ['url with port', 'https://example.com:8443/path@section'],
  ['ssh port flag', 'ssh -p 2222 deploy@example.com'],
  ['mkdir -p', 'mkdir -p src/components/forms'],
  ['scikit-learn', 'pip install scikit-learn==1.5.0'],
  ['jwt header only', 'alg header eyJhbGciOiJIUzI1NiJ9 is base64'],
  ['npm config env', 'npm_config_cache=/tmp/npm-cache npm ci'],
  ['ghp prefix in docs', 'classic tokens start with ghp_ and are 40 characters long'],
  ['camel case identifier', 'const handler = handleUserAuthenticationCallback2;'],
  ['docker digest', 'image: nginx@sha256:' + pick(HEX, 64)],
  ['lockfile integrity', `"integrity": "sha512-${mixed(86, B64)}=="`],
  ['version', 'version: 1.2.3'],
  ['bearer in prose', 'The Bearer scheme is defined in RFC 6750.'],
  ['token in prose', 'Token expiration is configured in settings.'],
  ['author', 'author: Jane Doe'],
  ['yaml key word', 'key: primary'],
  ['monkey', 'monkey=banana'],
  ['passport field', 'passport_number_field=label'],
  ['secretary', 'secretary=Bob'],
  ['tokenizer', 'tokenizer=bert-base-uncased'],
  ['postgres url without credentials', 'postgres://localhost:5432/mydb'],
  ['email', 'contact: dev@example.com'],
  ['go.sum line', `github.com/stretchr/testify v1.9.0 h1:${mixed(43, B64)}=`],
  ['css color', 'color: #FF5733;'],
  ['short base64', 'echo aGVsbG8gd29ybGQ= | base64 -d'],
  ['public key', `public_key=ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ${pick(B64, 40)} user@host`],
  ['kid', '"kid": "2011-04-29"'],
  ['nonce', 'nonce=0'],
  ['public key block', pem('PUBLIC KEY')],
  ['certificate block', pem('CERTIFICATE')],
  ['semver range', '"react": "^18.3.1"'],
  ['AIza mention', 'Google keys begin with AIza'],
  ['ssh key path', 'cat ~/.ssh/id_rsa.pub'],
  ['basic usage', 'Basic usage: loom demo'],
  ['stripe test prefix mention', 'use sk_test_ keys in development'],
  ['model name', 'ANTHROPIC_MODEL=claude-sonnet-4-5-20250929'],
  ['bearer with variable', 'curl -H "Authorization: Bearer $TOKEN" https://api.example.com'],
  ['task runner word', 'npm run task-runner-build-and-deploy-all-services'],
  ['risk word', 'risk-assessment-framework-version-two'],
];

describe('redaction corpus', () => {
  it('has at least 60 secrets and 60 look-alikes', () => {
    expect(SECRETS.length).toBeGreaterThanOrEqual(60);
    expect(LOOKALIKES.length).toBeGreaterThanOrEqual(60);
  });

  for (const [label, text, value] of SECRETS) {
    it(`catches: ${label}`, () => {
      const out = redactText(text);
      expect(out).toContain('[REDACTED');
      expect(out).not.toContain(value);
      // No more than a short prefix of the secret may survive.
      expect(out.includes(value.slice(0, Math.max(12, Math.floor(value.length / 2))))).toBe(false);
    });
  }

  for (const [label, text] of LOOKALIKES) {
    it(`spares: ${label}`, () => {
      expect(redactText(text)).toBe(text);
    });
  }
});

describe('redact on records', () => {
  it('walks nested objects and arrays, keys included, and counts what it removed', () => {
    const key = 'ghp_' + mixed(36);
    const r = redact({ tool_input: { command: `echo ${key}`, env: { DB_PASSWORD: 'hunter2hunter2', HOME: '/home/dev' } }, list: [`Bearer ${mixed(30)}`, 'plain'] });
    expect(JSON.stringify(r.value)).not.toContain(key);
    expect(JSON.stringify(r.value)).not.toContain('hunter2hunter2');
    expect(r.value.tool_input.env.HOME).toBe('/home/dev');
    expect(r.value.list[1]).toBe('plain');
    expect(r.count).toBe(3);
  });

  it('a "__proto__" member from a payload is kept in the record, as data, and still redacted', () => {
    const key = 'ghp_' + mixed(36);
    const payload = JSON.parse(`{"tool_input":{"command":"ls","__proto__":{"note":"hidden?","token":"${key}"}}}`) as { tool_input: Record<string, unknown> };
    const r = redact(payload);
    const stored = canonicalJson(r.value);
    expect(stored).toContain('"__proto__":{"note":"hidden?","token":"[REDACTED');
    expect(stored).not.toContain(key);
    expect(Object.getPrototypeOf(r.value.tool_input)).toBe(Object.prototype);
  });

  it('reads JSON-escaped lines decoded, with the context their neighbours and escaped table headers give', () => {
    const pw = 'Qv7' + mixed(12);
    const plain = Array.from({ length: 6 }, (_, i) => `row ${i} built`).join('\n');
    // The header names its secret column only once decoded (\u0070 is p); its rows are plain lines far below.
    const rows = Array.from({ length: 6 }, (_, i) => `u${i},Mx${i}rT7pq${i}`).join('\n');
    const csv = `user,\\u0070assword\n${rows}\nbob,${pw}\n`;
    expect(redactText(csv)).not.toContain(pw);
    // An escaped value on one line, its name on the plain line above.
    const yaml = `${plain}\nname: db_password\nvalue: \\"${pw}\\"\n${plain}`;
    expect(redactText(yaml)).not.toContain(pw);
    // Escaped lines far apart are not read as neighbours: the plain text between them is untouched.
    const apart = `a: \\"x\\"\n${plain}\nb: \\"y\\"`;
    expect(redactText(apart)).toBe(apart);
  });

  it('is idempotent: redacted text stays as it is', () => {
    const once = redactText(`token=${mixed(30)} and AKIA${pick(UP + DIG, 16)}`);
    expect(redactText(once)).toBe(once);
  });

  it('stays linear on hostile input (no catastrophic backtracking)', () => {
    const inputs = [
      'a'.repeat(200_000),
      'A'.repeat(200_000) + '=',
      '-----BEGIN RSA PRIVATE KEY-----' + 'x'.repeat(100_000),
      'x=' + 'y'.repeat(200_000),
      'https://' + 'u'.repeat(50_000) + ':' + 'p'.repeat(50_000),
      'mysql ' + ' -p'.repeat(30_000),
      'eyJ' + 'a'.repeat(50_000) + '.eyJ' + 'b'.repeat(50_000),
      'Bearer '.repeat(20_000),
    ];
    // Completing at all is the assertion; a backtracking pattern would not finish within the test timeout.
    for (const s of inputs) expect(typeof redactText(s)).toBe('string');
  });
});
