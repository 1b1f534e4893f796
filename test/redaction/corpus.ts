// A generated corpus of secrets by family, each secret drawn at random (a
// seeded generator, so a failure reproduces), set in several realistic
// contexts; and look-alikes that must survive untouched. Our own strings:
// nothing here comes from the red-team corpus.

export interface SecretCase {
  family: string;
  text: string;
  secret: string;
}
export interface LookalikeCase {
  family: string;
  text: string;
  keep: string;
}

export function corpus(seed = 20261201): { secrets: SecretCase[]; lookalikes: LookalikeCase[] } {
  let s = seed >>> 0;
  const rnd = () => {
    // xorshift32
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 0x100000000;
  };
  const pick = (alphabet: string, n: number) => {
    let out = '';
    for (let i = 0; i < n; i++) out += alphabet[Math.floor(rnd() * alphabet.length)];
    return out;
  };
  const one = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)];
  const UP = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const LOW = 'abcdefghijklmnopqrstuvwxyz';
  const DIG = '0123456789';
  const AN = UP + LOW + DIG;
  const HEX = '0123456789abcdef';
  const B64 = AN + '+/';
  const URLS = AN + '-_';
  const SYM = '#/!%$&;@^*()+=?~';
  const mixed = (n: number, alphabet = AN) => pick(UP, 1) + pick(LOW, 1) + pick(DIG, 1) + pick(alphabet, n - 3);
  /** A human password with punctuation that breaks naive parsers. */
  const pw = (syms = SYM) => pick(UP, 1) + pick(LOW, 4) + pick(syms, 1) + pick(DIG, 2) + pick(LOW + DIG, 3) + pick(syms, 1) + pick(AN, 2);
  const phrase = () => Array.from({ length: 4 }, () => pick(LOW, 4 + Math.floor(rnd() * 4))).join(' ') + pick(DIG, 2);
  const user = () => one(['admin', 'deploy', 'ci', 'app', 'svc-build', 'root', 'jenkins']);
  const host = () => one(['db.internal', 'db.prod.example.net', '10.0.3.17', 'cache.local', 'registry.example.io', 'localhost']);
  const secrets: SecretCase[] = [];
  const lookalikes: LookalikeCase[] = [];
  const add = (family: string, make: (v: string) => string, value: () => string, n = 4) => {
    for (let i = 0; i < n; i++) {
      const v = value();
      secrets.push({ family, text: make(v), secret: v });
    }
  };
  const keep = (family: string, text: string, k = text) => lookalikes.push({ family, text, keep: k });

  // URL userinfo with awkward passwords: the userinfo runs to the last @ before the host.
  for (const scheme of ['postgres', 'postgresql', 'mysql', 'mongodb+srv', 'redis', 'amqp', 'https', 'ftp', 'smtp']) {
    add('url-userinfo', (v) => `${scheme}://${user()}:${v}@${host()}:${one(['5432', '6379', '443', '21'])}/${one(['app', 'db0', ''])}`, () => pw());
  }
  add('url-userinfo', (v) => `git clone https://oauth2:${v}@gitlab.example.com/group/repo.git`, () => pw('#/!%$@'), 6);
  add('url-userinfo', (v) => `DATABASE_URL="postgres://app:${v}@db:5432/app?sslmode=require"`, () => pw('#/!%$@'), 4);
  add('url-userinfo', (v) => `pip install --index-url https://__token__:${v}@pypi.example.com/simple pkg`, () => mixed(30, URLS));

  // Values after a space or in quotes, per program.
  add('cli-flag', (v) => `mycli deploy --password '${v}' --env prod`, () => pw());
  add('cli-flag', (v) => `tool login --token ${v}`, () => mixed(32));
  add('cli-flag', (v) => `svc --api-key "${v}" --region eu`, () => mixed(28, URLS));
  add('cli-flag', (v) => `app --client-secret=${v}`, () => mixed(24));
  add('cli-flag', (v) => `mysql -h ${host()} -u ${user()} -p'${v}' app`, () => pw());
  add('cli-flag', (v) => `mysqldump -uroot -p${v} --all-databases > all.sql`, () => pw('!%#^'));
  add('cli-flag', (v) => `redis-cli -h cache -a '${v}' INFO`, () => pw());
  add('cli-flag', (v) => `redis-cli -a ${v} --no-auth-warning ping`, () => mixed(20));
  add('cli-flag', (v) => `docker login -u ${user()} -p ${v} registry.example.io`, () => mixed(24));
  add('cli-flag', (v) => `echo ok && docker login registry.example.io --username ci --password "${v}"`, () => pw());
  add('cli-flag', (v) => `curl -u ${user()}:${v} https://api.example.com/v1/status`, () => pw('!%^*'));
  add('cli-flag', (v) => `curl -s --user "${user()}:${v}" https://ci.example.com/job`, () => pw());
  add('cli-flag', (v) => `htpasswd -b /etc/nginx/.htpasswd ${user()} ${v}`, () => pw('!%^*'));
  add('cli-flag', (v) => `htpasswd -nbB ${user()} '${v}'`, () => pw());
  add('cli-flag', (v) => `7z a -p${v} -mhe=on backup.7z ./data`, () => pw('!%^*'));
  add('cli-flag', (v) => `zip -r -P '${v}' secrets.zip config/`, () => pw());
  add('cli-flag', (v) => `keytool -importkeystore -srckeystore a.p12 -srcstorepass ${v} -deststorepass ${v}`, () => mixed(16));
  add('cli-flag', (v) => `keytool -genkey -alias app -keystore ks.jks -storepass '${v}' -keypass '${v}'`, () => pw());
  add('cli-flag', (v) => `gpg --batch --yes --passphrase '${v}' -d secrets.gpg`, () => phrase());
  add('cli-flag', (v) => `openssl pkcs12 -export -in c.pem -inkey k.pem -out c.p12 -passout pass:${v}`, () => pw('!%^*'));
  add('cli-flag', (v) => `openssl rsa -in enc.key -passin 'pass:${v}' -out plain.key`, () => pw());
  add('cli-flag', (v) => `wget --user=${user()} --password=${v} https://files.example.com/a.tgz`, () => pw('!%^*'));
  add('cli-flag', (v) => `wget --http-password='${v}' https://files.example.com/b.tgz`, () => pw());
  add('cli-flag', (v) => `sshpass -p '${v}' ssh ${user()}@${host()}`, () => pw());
  add('cli-flag', (v) => `sshpass -p${v} scp a.txt ${user()}@${host()}:/tmp`, () => pw('!%^*'));
  add('cli-flag', (v) => `SSHPASS='${v}' sshpass -e ssh ${user()}@${host()}`, () => pw());
  add('cli-flag', (v) => `PGPASSWORD=${v} psql -h ${host()} -U app -c 'select 1'`, () => pw('!%^*'));
  add('cli-flag', (v) => `MYSQL_PWD="${v}" mysql -u root`, () => pw());
  add('cli-flag', (v) => `mongosh "mongodb://${host()}" -u ${user()} -p '${v}'`, () => pw());
  add('cli-flag', (v) => `ldapsearch -x -D cn=admin,dc=example -w ${v} -b dc=example`, () => pw('!%^*'));
  add('cli-flag', (v) => `smbclient //fs/share -U ${user()}%${v}`, () => pw('!^*'));
  add('cli-flag', (v) => `sqlcmd -S ${host()} -U sa -P '${v}' -Q 'SELECT 1'`, () => pw());
  add('cli-flag', (v) => `aws configure set aws_secret_access_key ${v}`, () => mixed(40, B64));
  add('cli-flag', (v) => `twine upload -u __token__ -p ${v} dist/*`, () => mixed(30));
  add('cli-flag', (v) => `unzip -P ${v} archive.zip`, () => pw('!%^*'));
  add('cli-flag', (v) => `rabbitmqctl add_user ${user()} '${v}'`, () => pw());
  add('cli-flag', (v) => `git config --global user.password ${v}`, () => mixed(20));

  // Authorization headers in any scheme and case, and vendor key headers.
  for (const scheme of ['Bearer', 'bearer', 'token', 'Token', 'Basic', 'Bot', 'SSWS', 'Splunk', 'Digest username="bob", response=', 'ApiKey', 'Key', 'OAuth', 'JWT', 'GenieKey', 'Negotiate']) {
    add('auth-header', (v) => `curl -H 'Authorization: ${scheme} ${v}' https://api.example.com/x`, () => mixed(12 + Math.floor(rnd() * 30), URLS), 2);
  }
  add('auth-header', (v) => `> authorization: Bearer ${v}\n> accept: */*`, () => mixed(20));
  add('auth-header', (v) => `headers = {"AUTHORIZATION": "Token ${v}"}`, () => mixed(14));
  add('auth-header', (v) => `fetch(u, { headers: { Authorization: \`Basic ${v}\` } })`, () => mixed(24, B64));
  for (const h of ['Ocp-Apim-Subscription-Key', 'X-Api-Key', 'x-api-key', 'api-key', 'X-Auth-Token', 'PRIVATE-TOKEN', 'X-Vault-Token', 'X-Shopify-Access-Token', 'x-goog-api-key', 'DD-API-KEY', 'X-RapidAPI-Key']) {
    add('vendor-header', (v) => `curl -H "${h}: ${v}" https://api.example.com`, () => mixed(16 + Math.floor(rnd() * 20)), 2);
  }
  add('vendor-header', (v) => `{"headers": {"x-api-key": "${v}"}}`, () => mixed(18));
  add('cookie', (v) => `Cookie: theme=dark; sessionid=${v}; lang=en`, () => pick(LOW + DIG, 32));
  add('cookie', (v) => `Set-Cookie: connect.sid=${v}; Path=/; HttpOnly`, () => 's%3A' + mixed(30, URLS));

  // Token shapes.
  add('docker-pat', (v) => `echo ${v} | docker login -u me --password-stdin`, () => 'dckr_pat_' + mixed(27, URLS));
  add('slack', (v) => `SLACK_APP_TOKEN ${v}`, () => `xapp-1-A${pick(UP + DIG, 10)}-${pick(DIG, 13)}-${pick(HEX, 64)}`);
  add('slack', (v) => `token: ${v}`, () => `xox${one(['b', 'p', 'a', 'e'])}-${pick(DIG, 12)}-${pick(DIG, 12)}-${mixed(24)}`);
  add('age', (v) => `# created: 2026-01-01\n${v}`, () => 'AGE-SECRET-KEY-1' + pick(UP + DIG, 58));
  add('putty', (v) => `PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: k\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAI${pick(B64, 20)}\n${pick(B64, 20)}\nPrivate-Lines: 1\n${v}\nPrivate-MAC: ${pick(HEX, 64)}`, () => mixed(44, B64));
  add('twilio', (v) => `client = Client("${v}", auth)`, () => 'AC' + pick(HEX, 32));
  add('twilio', (v) => `twilio api:core:keys:create -> sid ${v}`, () => 'SK' + pick(HEX, 32));
  add('atlassian', (v) => `JIRA token ${v}`, () => 'ATATT3xFfGF0' + mixed(180, URLS) + '=' + pick(HEX.toUpperCase(), 8));
  add('bitbucket', (v) => `app password ${v}`, () => 'ATBB' + mixed(32));
  add('telegram', (v) => `curl https://api.telegram.org/bot${v}/sendMessage -d chat_id=1`, () => pick(DIG, 10) + ':AA' + mixed(33, URLS));
  add('django', (v) => `SECRET_KEY = '${v}'`, () => 'django-insecure-' + pick(LOW + DIG + '!@#$%^&*(-_=+)', 50));
  add('django', (v) => `Cookie: csrftoken=abc; sessionid=${v}`, () => pick(LOW + DIG, 32));
  add('aws-secret', (v) => `aws_secret_access_key = ${v}`, () => mixed(40, B64));
  add('aws-secret', (v) => `{"AccessKeyId": "AKIA${pick(UP + DIG, 16)}", "SecretAccessKey": "${v}"}`, () => mixed(40, B64));
  add('aws-secret', (v) => `| AKIA${pick(UP + DIG, 16)} | ${v} | Active |`, () => mixed(40, B64));
  add('credentials-csv', (v) => `User name,Password,Access key ID,Secret access key,Console login link\nci-bot,${pw('!^*')},AKIA${pick(UP + DIG, 16)},${v},https://123.signin.aws.amazon.com/console`, () => mixed(40, B64));
  add('credentials-csv', (v) => `Access key ID,Secret access key\nAKIA${pick(UP + DIG, 16)},${v}`, () => mixed(40, B64));
  add('netrc', (v) => `machine api.example.com login ${user()} password ${v}`, () => pw('!%^*#'));
  add('netrc', (v) => `machine git.example.com\n  login ${user()}\n  password ${v}\n`, () => pw('!%^*#'));
  add('pgpass', (v) => `${host()}:5432:app:${user()}:${v}`, () => pw('!%^*#@'));
  add('pgpass', (v) => `$ cat ~/.pgpass\n*:*:*:postgres:${v}\n`, () => pw('!%^*#'));
  add('vault-table', (v) => `Key                 Value\n---                 -----\nrefresh_interval    768h\napi_key             ${v}\nusername            app`, () => mixed(30));
  add('vault-table', (v) => `====== Data ======\nKey         Value\n---         -----\npassword    ${v}`, () => pw());
  add('vault-token', (v) => `export VAULT_ADDR=https://vault:8200; vault login ${v}`, () => 'hvs.' + mixed(90, URLS));
  add('github', (v) => `remote: ${v}`, () => one(['ghp_', 'gho_', 'ghs_']) + mixed(36));
  add('github', (v) => `GH_PAT ${v}`, () => 'github_pat_' + mixed(82, AN + '_'));
  add('gitlab', (v) => `glab auth login --token ${v}`, () => 'glpat-' + mixed(20, URLS));
  add('stripe', (v) => `Stripe::api_key ${v}`, () => 'sk_live_' + mixed(99));
  add('openai', (v) => `OPENAI ${v}`, () => 'sk-proj-' + mixed(120, URLS));
  add('anthropic', (v) => `anthropic key ${v}`, () => 'sk-ant-api03-' + mixed(93, URLS) + 'AA');
  add('npm', (v) => `//npm.pkg.github.com/:_authToken=${v}`, () => 'npm_' + mixed(36));
  add('pypi', (v) => `[pypi]\nusername = __token__\npassword = ${v}`, () => 'pypi-AgEIcHlwaS5vcmc' + mixed(120, URLS));
  add('google', (v) => `const k = "${v}";`, () => 'AIza' + mixed(35, URLS));
  add('gcp-service-account', (v) => `{"type":"service_account","private_key_id":"${pick(HEX, 40)}","private_key":"${v}","client_email":"a@b.iam.gserviceaccount.com"}`, () => `-----BEGIN PRIVATE KEY-----\\n${pick(B64, 64)}\\n${pick(B64, 64)}\\n-----END PRIVATE KEY-----\\n`);
  add('jwt', (v) => `id_token=${v}`, () => `eyJ${pick(URLS, 30)}.eyJ${pick(URLS, 80)}.${pick(URLS, 43)}`);
  add('pem', (v) => `$ cat id_ed25519\n${v}`, () => `-----BEGIN OPENSSH PRIVATE KEY-----\n${pick(B64, 70)}\n${pick(B64, 70)}\n-----END OPENSSH PRIVATE KEY-----`);

  // Names where the sensitive word is not last; values with %, $, &, ;, spaces, escaped quotes.
  for (const name of ['DB_PASSWORD_PROD', 'JWT_SECRET_V2', 'DB_PW', 'DB_PWD', 'SECRET_KEY_BASE', 'PASSWD', 'API_KEY_STAGING', 'GITHUB_TOKEN_2', 'REDIS_PASS', 'SMTP_PASSWORD_OLD', 'stripeSecretKeyLive', 'client-secret', 'AUTH_TOKEN_RAW']) {
    add('name', (v) => `${name}=${v}`, () => pw('!%^*#'), 2);
    add('name', (v) => `export ${name}="${v}"`, () => pw(), 1);
  }
  add('value-shape', (v) => `DB_PASSWORD=${v}`, () => '%' + pw('!^*#'));
  add('value-shape', (v) => `API_TOKEN=${v}`, () => '$' + pick(LOW, 1) + pw('!^*#'));
  add('value-shape', (v) => `SMTP_PASSWORD=${v}`, () => pick(AN, 5) + '&' + pick(AN, 5) + ';' + pick(AN, 4));
  add('value-shape', (v) => `password: "${v}"`, () => pick(AN, 5) + '\\"' + pick(AN, 6));
  add('value-shape', (v) => `GPG_PASSPHRASE='${v}'`, () => phrase());
  add('value-shape', (v) => `passphrase: ${v}`, () => phrase());
  add('value-shape', (v) => `{"password": "${v}"}`, () => phrase());
  add('prose', (v) => `Your new temporary password is: ${v}`, () => pw('!%^*'));
  add('pwd', (v) => `PWD=${v} ./connect.sh`, () => pw('!%^*'));

  // Look-alikes: ids, digests, nonces and placeholders that must stay.
  for (let i = 0; i < 4; i++) {
    const nonce = mixed(22, B64) + '==';
    keep('csp-nonce', `Content-Security-Policy: script-src 'self' 'nonce-${nonce}'`, nonce);
    keep('csp-nonce', `<script nonce="${nonce}">init()</script>`, nonce);
    const amz = mixed(76, B64);
    keep('x-amz-id-2', `x-amz-id-2: ${amz}`, amz);
    keep('x-amz-id-2', `< x-amz-request-id: ${pick(UP + DIG, 16)}\n< x-amz-id-2: ${amz}=`, amz);
    const ch = mixed(43, URLS);
    keep('pkce', `https://auth.example.com/authorize?response_type=code&code_challenge=${ch}&code_challenge_method=S256`, ch);
    keep('pkce', `code_challenge: ${ch}`, ch);
    const sha = pick(HEX, 40);
    keep('git-sha', `commit ${sha}\nAuthor: Dev <dev@example.com>`, sha);
    keep('git-sha', `HEAD is now at ${sha.slice(0, 7)} fix build`, sha.slice(0, 7));
    const integ = 'sha512-' + mixed(86, B64) + '==';
    keep('integrity', `"integrity": "${integ}"`, integ);
    keep('integrity', `integrity ${integ.replace('sha512', 'sha384').slice(0, 71)}`, integ.replace('sha512', 'sha384').slice(0, 71));
    const uuid = `${pick(HEX, 8)}-${pick(HEX, 4)}-4${pick(HEX, 3)}-a${pick(HEX, 3)}-${pick(HEX, 12)}`;
    keep('uuid', `request_id=${uuid}`, uuid);
    keep('uuid', `{"trace_id": "${uuid}"}`, uuid);
    const dig = 'sha256:' + pick(HEX, 64);
    keep('image-digest', `docker pull nginx@${dig}`, dig);
    keep('image-digest', `"digest": "${dig}"`, dig);
  }
  for (const [k, v] of [
    ['API_KEY', 'your-api-key-here'], ['DB_PASSWORD', 'changeme'], ['SECRET_KEY', '<generate-a-secret>'], ['STRIPE_SECRET_KEY', 'sk_test_xxxxxxxxxxxx'],
    ['JWT_SECRET', 'your_jwt_secret'], ['GITHUB_TOKEN', 'ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'], ['DATABASE_URL', 'postgres://user:password@localhost:5432/db'],
    ['PASSWORD', ''], ['AWS_SECRET_ACCESS_KEY', '${AWS_SECRET_ACCESS_KEY}'], ['REDIS_PASSWORD', '$REDIS_PASSWORD'], ['TOKEN', 'replace_me'],
    ['SMTP_PASSWORD', '%SMTP_PASSWORD%'], ['API_TOKEN', '{{ api_token }}'], ['SECRET', '********'],
  ]) keep('env-example', `${k}=${v}`);
  for (const t of [
    'cd $PWD && make', 'echo "$PWD"', 'PWD=/home/dev/project', 'OLDPWD=/tmp', 'password_reset_url=https://example.com/reset', 'token_count=4096', 'TOKEN_LIMIT=1000',
    'PASSWORD_MIN_LENGTH=12', 'max_tokens: 2048', 'docker run -p 8080:80 nginx', 'docker run --user 1000:1000 alpine id', 'mysql -u root -p app_db',
    'ssh -p 2222 deploy@example.com', 'git log --author=dev@example.com', 'https://example.com:8443/path@section', 'npm i @scope/pkg@1.2.3',
    'https://www.npmjs.com/package/@types/node', 'curl -H "Authorization: Bearer $TOKEN" https://api.example.com', 'curl -H "Content-Type: application/json" -d @body.json',
    'The password must be at least 12 characters.', 'Token expiration is set in the dashboard.', 'gpg --passphrase-fd 0 -d f.gpg', 'docker login --password-stdin',
    'openssl rsa -in k.pem -passin env:KEY_PASS', 'openssl rsa -in k.pem -passin file:/run/secrets/pass', 'kubectl get secret db-creds -o name', 'secret_name: db-credentials',
    'x-request-id: 4bf92f3577b34da6a3ce929d0e0e4736', 'ETag: "33a64df551425fcc55e4d42a148795d9f25f89d4"', 'traceparent: 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
    'Authorization header missing', 'zip -r out.zip dir', 'curl -u admin https://x.example.com', '7z x archive.7z', 'keytool -list -keystore ks.jks',
  ]) keep('plain', t);

  // Secrets their surroundings reveal (red-team round 3 causes), added last so the draws above stay the same.
  add('sql-password', (v) => `mysql> CREATE USER '${user()}'@'%' IDENTIFIED BY '${v}';`, () => pw('#/!%$&@^*'));
  add('sql-password', (v) => `postgres=# ALTER ROLE ${user().replace('-', '_')} WITH LOGIN PASSWORD '${v}';`, () => pw('#/!%$&@^*'));
  add('decoded-secret', (v) => `$ kubectl get secret ${one(['db', 'api', 'smtp'])} -o jsonpath='{.data.${one(['password', 'token', 'api-key'])}}' | base64 ${one(['-d', '--decode'])}\n${v}`, () => pw());
  add('basic-auth', (v) => `{"auths": {"${host()}": {"auth": "${v}"}}}`, () => Buffer.from(`${user()}:${pw()}`).toString('base64'));
  add('basic-auth', (v) => `//${host()}/:_auth=${v}`, () => Buffer.from(`${user()}:${mixed(16)}`).toString('base64'));
  add('key-value-attributes', (v) => `<add key="${one(['Smtp:Password', 'jwt.signing_secret', 'ApiToken'])}" value="${v}" />`, () => pw());
  add('url-key-userinfo', (v) => `SENTRY_DSN=https://${v}@o${pick(DIG, 6)}.ingest.sentry.io/${pick(DIG, 7)}`, () => pick(HEX, 32));
  add('twilio-auth-token', (v) => `client = Client("AC${pick(HEX, 32)}", "${v}")`, () => pick(HEX, 32));
  for (const v of ['CHANGE_ME_IN_PROD', 'replace-me-with-the-real-one', 'YOUR_DB_PASSWORD_HERE', 'vault:secret/data/app#db_password', '!Ref DbPassword'])
    keep('placeholder-words', `DB_PASSWORD=${v}`, v);
  const pk = `pk_live_${mixed(24)}`;
  keep('publishable-key', `STRIPE_PUBLISHABLE_KEY=${pk}`, pk);
  return { secrets, lookalikes };
}
