// Secrets that their surroundings reveal, and placeholders that only look like
// values (issue 12 §2, red-team round 3 causes). Each cause is tested with
// several spellings generated here, never with a corpus line.
import { describe, expect, it } from 'vitest';
import { redactText } from '../src/ledger/redact';
import { rng } from './fuzz/rng';

const r = rng(20261201);
const pick = (alphabet: string, n: number) => Array.from({ length: n }, () => alphabet[Math.floor(r() * alphabet.length)]).join('');
const UP = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOW = 'abcdefghijklmnopqrstuvwxyz';
const DIG = '0123456789';
const HEX = '0123456789abcdef';
const password = () => pick(UP, 1) + pick(LOW, 5) + pick(DIG, 3) + pick('!%&@#^*~', 1) + pick(LOW + UP, 4);
const b64 = (s: string) => Buffer.from(s).toString('base64');

function gone(make: (secret: string) => string, secret: string) {
  const text = make(secret);
  const out = redactText(text);
  expect(out, text).not.toContain(secret);
}

function kept(text: string, keep: string) {
  expect(redactText(text), text).toContain(keep);
}

describe('secrets revealed by their surroundings', () => {
  it('SQL that sets a password: IDENTIFIED BY, [WITH] PASSWORD, SET PASSWORD', () => {
    for (let i = 0; i < 4; i++) {
      gone((p) => `mysql> CREATE USER 'svc${i}'@'10.0.0.%' IDENTIFIED BY '${p}';`, password());
      gone((p) => `db=# ALTER USER report${i} WITH ENCRYPTED PASSWORD '${p}';\nALTER ROLE`, password());
      gone((p) => `create role app login password '${p}' valid until 'infinity';`, password());
      gone((p) => `ALTER USER 'x'@'localhost' IDENTIFIED WITH caching_sha2_password BY '${p}';`, password());
      gone((p) => `SET PASSWORD FOR 'bob'@'%' = PASSWORD('${p}');`, password());
    }
    kept("mysql> CREATE USER 'app'@'%' IDENTIFIED BY '<password>';", '<password>');
  });

  it('the output of a command that decodes a stored secret', () => {
    for (let i = 0; i < 4; i++) {
      gone((p) => `$ kubectl -n ns${i} get secret api -o jsonpath='{.data.token}' | base64 --decode\n${p}\n$ echo done`, password());
      gone((p) => `# oc get secret db${i} -o go-template='{{.data.password}}' | base64 -d\n${p}`, password());
    }
    // A decode of something else prints no secret.
    kept('$ echo aGVsbG8= | base64 -d\nhello world', 'hello world');
  });

  it('ftp scripts: user NAME PASSWORD', () => {
    for (let i = 0; i < 3; i++) gone((p) => `$ ftp -inv host${i}.example <<END\nuser deploy ${p}\nbinary\nput x.tar\nEND`, password());
    kept('$ ftp -inv h <<END\nuser deploy $FTP_PASS\nEND', '$FTP_PASS');
  });

  it('the result of a Terraform random_password', () => {
    for (let i = 0; i < 3; i++) {
      gone((p) => `$ terraform state pull | jq '.resources[] | select(.type=="random_password")'\n{\n  "length": 24,\n  "result": "${p}",\n  "special": true\n}`, password());
      gone((p) => `# random_password.db${i}:\nresource "random_password" "db" {\n    result = "${p}"\n}`, password());
    }
  });

  it('name and value given apart: <add key="..." value="..."/>, {"Key": ..., "Value": ...}', () => {
    for (const name of ['smtp.password', 'Jwt:SigningSecret', 'api_token', 'ConnectionStrings.DbPassword']) {
      gone((p) => `<appSettings>\n  <add key="${name}" value="${p}" />\n</appSettings>`, password());
      gone((p) => `{"Key": "${name}", "Value": "${p}"}`, password());
    }
    kept('<add key="Environment" value="Staging" />', 'Staging');
  });

  it('a key as the whole URL userinfo (Sentry DSN, https://<token>@host)', () => {
    for (let i = 0; i < 3; i++) {
      gone((k) => `SENTRY_DSN=https://${k}@o${4000 + i}.ingest.sentry.io/${9000 + i}`, pick(HEX, 32));
      gone((k) => `git remote add origin https://${k}@git.example.org/team/repo.git`, pick(LOW + UP + DIG, 30));
    }
    kept('ssh://git@github.com/org/repo.git', 'git@github.com');
  });

  it('base64 of user:secret in an auth position (docker config.json, .npmrc _auth, basicAuth)', () => {
    for (let i = 0; i < 4; i++) {
      const cred = b64(`bot${i}:${password()}`);
      gone((c) => `{\n  "auths": {\n    "registry${i}.example.io": {\n      "auth": "${c}"\n    }\n  }\n}`, cred);
      gone((c) => `_auth=${c}\nalways-auth=true`, b64(`ci:${password()}`));
      gone((c) => `basicAuth: ${c}`, b64(`admin:${password()}`));
    }
    // Base64 that is not user:secret, under a name that is only `auth`, stays.
    kept(`auth: ${b64('enabled')}`, b64('enabled'));
  });

  it('token shapes: Twilio auth token after its SID, Mailchimp keys, FCM server keys', () => {
    for (let i = 0; i < 3; i++) {
      gone((t) => `client = Client("AC${pick(HEX, 32)}", "${t}")`, pick(HEX, 32));
      gone((k) => `MC_KEY=${k}`, `${pick(HEX, 32)}-us${i + 4}`);
      gone((k) => `const key = '${k}';`, `AAAA${pick(LOW + UP + DIG, 7)}:APA91b${pick(LOW + UP + DIG + '-_', 134)}`);
    }
  });

  it('gcp service account private_key_id, mc alias set', () => {
    gone((k) => `{"type": "service_account", "private_key_id": "${k}"}`, pick(HEX, 40));
    gone((k) => `$ mc alias set prod https://s3.example.io AKIAEXAMPLEKEY ${k}`, password() + pick(LOW, 10));
    kept('$ mc alias rm prod', 'prod');
  });
});

describe('placeholders stay', () => {
  it('words that say "put the value here", in any case and separator', () => {
    for (const v of ['CHANGE_ME_IN_PROD', 'change-me-before-deploy', 'ReplaceMeLater', 'YOUR_API_KEY_HERE', 'dummy_secret_value', 'insert_token_here', 'please-change-this'])
      kept(`DB_PASSWORD=${v}\n`, v);
  });

  it('references into secret managers and templating tags', () => {
    for (const v of ['vault:secret/data/prod#db_password', 'op://Infra/db/password', 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:db-AbCdEf', '$(cat /run/secrets/api_token)', 'env(APP_SECRET)'])
      kept(`API_TOKEN=${v}\n`, v);
    for (const v of ['!Ref DbPassword', '!GetAtt Db.Password', '<your token here>']) kept(`password: ${v}\n`, v);
  });

  it('a real secret that holds a placeholder word is still a secret', () => {
    for (const v of ['ChangeMe2024!', 'Example#77x', 'dummy' + pick(DIG, 4) + '$Q']) gone((s) => `DB_PASSWORD=${s}\n`, v);
    // A line that ends in a placeholder-like word does not spare the value before it.
    gone((p) => `the password is ${p} for admin@example.com`, password());
  });

  it('public by design: Stripe publishable keys', () => {
    kept(`// test: pk_test_${pick(LOW + UP + DIG, 24)}`, 'pk_test_');
    const pk = `pk_live_${pick(LOW + UP + DIG, 24)}`;
    kept(`STRIPE_PUBLISHABLE_KEY=${pk}`, pk);
  });
});
