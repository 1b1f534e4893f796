// Causes found by a blind red-team corpus (round 9): crypto wallets (BIP39 seed phrases, WIF keys,
// keypair byte arrays, hex private keys under wallet names, typed privkey: keys), license keys
// (BEGIN LICENSE blocks, product keys, licensing calls, gem source credentials), and commands whose
// output is a secret. Every value below is made up here (WIF keys with a valid checksum are built
// by the test); each family is fixed in its detector, so another string of the same shape behaves
// the same. Each new detector also reads 1 MB of the fragment it keys on in linear work.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { redactText } from '../src/ledger/redact';
import { BIP39_WORDS } from '../src/ledger/redaction/bip39-words';
import { isWifChecksum } from '../src/ledger/redaction/wif-keys';
import { work } from '../src/ledger/redaction/work';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest();
const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
function base58(b: Buffer): string {
  let x = BigInt('0x' + b.toString('hex'));
  let s = '';
  while (x > 0n) {
    s = B58[Number(x % 58n)] + s;
    x /= 58n;
  }
  for (let i = 0; i < b.length && b[i] === 0; i++) s = '1' + s;
  return s;
}
/** A WIF key of the 32 bytes derived from `seed` (version 0x80 or 0xef, compressed or not), checksum included. */
function wif(seed: string, compressed: boolean, testnet = false): string {
  const key = sha256(Buffer.from(seed));
  const payload = Buffer.concat([Buffer.from([testnet ? 0xef : 0x80]), key, compressed ? Buffer.from([1]) : Buffer.alloc(0)]);
  return base58(Buffer.concat([payload, sha256(sha256(payload)).subarray(0, 4)]));
}
/** 64 (or n) bytes derived from `seed`, as a JSON array. */
function byteArray(seed: string, n = 64, sep = ','): string {
  const b = Buffer.concat([sha256(Buffer.from(seed)), sha256(Buffer.from(seed + '2'))]).subarray(0, n);
  return '[' + [...b].join(sep) + ']';
}
const hex64 = (seed: string) => sha256(Buffer.from(seed)).toString('hex');
/** Twelve (or n) list words drawn by `seed`, in no sorted order. */
function phrase(seed: number, n = 12): string {
  const out: string[] = [];
  let x = seed;
  for (let k = 0; k < n; k++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out.push(BIP39_WORDS[x % 2048]);
  }
  return out.join(' ');
}

const P12 = phrase(11);
const P24 = phrase(23, 24);
const W1 = wif('one', true);
const W2 = wif('two', false);
const W3 = wif('three', true, true);
const A64 = byteArray('sol');

/** [cause, text, secret that must go] */
const SECRETS: [string, string, string][] = [
  // BIP39 seed phrases
  ['seed phrase: mnemonic in quotes', `mnemonic: "${P12}"\n`, P12],
  ['seed phrase: metamask recovery label', `metamask recovery: ${phrase(12)}\n`, phrase(12)],
  ['seed phrase: the line after solana-keygen', `$ solana-keygen new\nGenerating a new keypair\n===========================================================================\nSave this seed phrase and your BIP39 passphrase to recover your new keypair:\n${phrase(13)}\n===========================================================================\n`, phrase(13)],
  ['seed phrase: .env MNEMONIC', `MNEMONIC=${phrase(14, 15)}\nRPC_URL=https://rpc.example.net\n`, phrase(14, 15)],
  ['seed phrase: 24 words', `recovery phrase (keep offline)\n${P24}\n`, P24],
  ['seed phrase: 18 words in JSON', `{"seed": "${phrase(15, 18)}"}\n`, phrase(15, 18)],
  ['seed phrase: numbered list', '1. ' + phrase(16).split(' ').map((w, k) => (k ? `${k + 1}. ` : '') + w).join('\n') + '\n', phrase(16).split(' ')[5]],
  ['seed phrase: upper case, 21 words', `SEED: ${phrase(17, 21).toUpperCase()}\n`, phrase(17, 21).toUpperCase()],
  ['seed phrase: hardhat config string', `accounts: { mnemonic: '${phrase(18)}' },\n`, phrase(18)],
  ['seed phrase: capitalized first word', `Seed: ${phrase(20).replace(/^./, (c) => c.toUpperCase())}\n`, phrase(20).slice(1)],
  ['seed phrase: JSON-escaped tool output', JSON.stringify({ stdout: `Save this seed phrase:\n${phrase(19)}\n` }), phrase(19)],
  // WIF keys
  ['WIF: the line after bitcoin-cli dumpprivkey', `$ bitcoin-cli dumpprivkey bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq\n${W1}\n`, W1],
  ['WIF: uncompressed 5… key anywhere', `imported ${W2} ok\n`, W2],
  ['WIF: testnet c… key', `$ bitcoin-cli -testnet dumpprivkey tb1qxyz\n${W3}\n`, W3],
  ['WIF: importprivkey argument', `bitcoin-cli importprivkey ${wif('four', true)} "cold" false\n`, wif('four', true)],
  ['WIF: dumpwallet line', `${wif('five', true)} 2024-01-01T00:00:00Z label= # addr=bc1qzz\n`, wif('five', true)],
  ['WIF: bad checksum under a key label', 'WIF private key: L4mQp8Xv2Lr9Kt6Wn3Bz7Cy5Df1Gh8Jk2Mn4Pq6Rs9Tu3Vw5Xy7Za\n', 'L4mQp8Xv2Lr9Kt6Wn3Bz7Cy5Df1Gh8Jk2Mn4Pq6Rs9Tu3Vw5Xy7Za'],
  ['WIF: in a Python literal', `key = Key('${wif('six', true)}')\n`, wif('six', true)],
  ['WIF: in JSON', `{"wif": "${wif('seven', false)}"}\n`, wif('seven', false)],
  // keypair arrays
  ['keypair: cat id.json', `$ cat ~/.config/solana/id.json\n${A64}\n`, A64.slice(1, 40)],
  ['keypair: spaced array', `${byteArray('b', 64, ', ')}\n`, byteArray('b', 64, ', ').slice(1, 40)],
  ['keypair: fromSecretKey', `const kp = Keypair.fromSecretKey(Uint8Array.from(${byteArray('c')}));\n`, byteArray('c').slice(1, 40)],
  ['keypair: pretty-printed JSON', JSON.stringify(JSON.parse(byteArray('d')), null, 2) + '\n', JSON.stringify(JSON.parse(byteArray('d')), null, 2).split('\n')[3].trim()],
  ['keypair: 32-byte secret seed', `secret_seed = ${byteArray('e', 32)}\n`, byteArray('e', 32).slice(1, 30)],
  // hex private keys
  ['hex key: PRIVATE_KEY', `PRIVATE_KEY=${hex64('h1')}\n`, hex64('h1')],
  ['hex key: privateKey 0x in JS', `  privateKey: "0x${hex64('h2')}",\n`, hex64('h2')],
  ['hex key: DEPLOYER_KEY', `DEPLOYER_KEY=0x${hex64('h3')}\n`, hex64('h3')],
  ['hex key: signer key in TOML', `signer_key = "${hex64('h4')}"\n`, hex64('h4')],
  ['hex key: ETH_PK', `export ETH_PK=${hex64('h5')}\n`, hex64('h5')],
  ['hex key: typed privkey:', `  "PrivateKey": "privkey:${hex64('h6')}",\n`, hex64('h6')],
  ['hex key: typed nlpriv:', `nlpriv:${hex64('h7')}\n`, hex64('h7')],
  ['hex key: wallet json', `{"address":"0x52908400098527886E0F7030069857D2E4169EE7","privateKey":"0x${hex64('h8')}"}\n`, hex64('h8')],
  // license blocks, product keys, license calls, gem credentials
  ['license block hex lines', '----- BEGIN LICENSE -----\nJane Roe\nSingle User License\nEA7E-1085539\nB4E3F1A0 92C7D5E8 6F1B0A39 C2D84E57\n7A19E0C3 5B6D2F84 E1093AC7 D5B82F16\n------ END LICENSE ------\n', 'B4E3F1A0 92C7D5E8 6F1B0A39 C2D84E57'],
  ['license block last line', '—– BEGIN LICENSE –—\n-----BEGIN LICENSE-----\nAcme Corp\nUnlimited User License\nE52D-7781\n0F1E2D3C 4B5A6978 8796A5B4 C3D2E1F0\n-----END LICENSE-----\n', '0F1E2D3C 4B5A6978 8796A5B4 C3D2E1F0'],
  ['Windows product key after slmgr /ipk', 'C:\\> slmgr /ipk VK7JG-NPHTM-C97JM-9MPGT-3V66T\n', 'VK7JG-NPHTM-C97JM-9MPGT-3V66T'],
  ['product key in the key alphabet anywhere', 'Key: 7QWH2-KXB8D-RJ4TM-C6PV3-GF9YQ\n', '7QWH2-KXB8D-RJ4TM-C6PV3-GF9YQ'],
  ['ProductKey in an unattend.xml', '<ProductKey>\n  <Key>XJ2RT-8BQ4K-HC7WP-3MDYG-9FVTQ</Key>\n</ProductKey>\n', 'XJ2RT-8BQ4K-HC7WP-3MDYG-9FVTQ'],
  ['product key with vowels after "product key"', 'Your product key: ABCDE-12A45-FGH1J-K0LMN-PQ5ST\n', 'ABCDE-12A45-FGH1J-K0LMN-PQ5ST'],
  ['LicenseManager.setLicenseKey', 'LicenseManager.setLicenseKey("Acme_Dev_1Devs_21_March_2026__MTc0MjUxNTIw_8f0e2c9a");\n', 'Acme_Dev_1Devs_21_March_2026__MTc0MjUxNTIw_8f0e2c9a'],
  ['registerLicense', "registerLicense('Mgo+DSMBaFt/QHRqVVhlWFpFdEBBXHxAd1p/VWJYdVt5flBPcDwsT3RfQF5jS35Qd0BhUH9ec3VcRA==');\n", 'Mgo+DSMBaFt/QHRqVVhlWFpFdEBBXHxAd1p/VWJYdVt5flBPcDwsT3RfQF5jS35Qd0BhUH9ec3VcRA=='],
  ['LICENSE_KEY name', 'NEW_RELIC_LICENSE_KEY=eu01xx7b3c9d2e1f0a8b7c6d5e4f3a2b1c0dNRAL\n', 'eu01xx7b3c9d2e1f0a8b7c6d5e4f3a2b1c0dNRAL'],
  ['bundle config --global contribsys', 'bundle config --global gems.contribsys.com 1a2b3c4d:5e6f7a8b\n', '1a2b3c4d:5e6f7a8b'],
  ['bundle config set --local enterprise', 'bundle config set --local enterprise.contribsys.com 9f8e7d6c:1b2a3c4d\n', '9f8e7d6c:1b2a3c4d'],
  ['BUNDLE_GEMS__CONTRIBSYS__COM', 'BUNDLE_GEMS__CONTRIBSYS__COM=7c6b5a49:38271605\n', '7c6b5a49:38271605'],
  ['.bundle/config line', '---\nBUNDLE_GEMS__CONTRIBSYS__COM: "a9b8c7d6:e5f4a3b2"\n', 'a9b8c7d6:e5f4a3b2'],
  ['bundle config listing', '$ bundle config\nSettings are listed in order of priority. The top value will be used.\ngems.contribsys.com\nSet for the current user (/home/u/.bundle/config): "d4c3b2a1:0f9e8d7c"\n\npath\nSet for your local app (/app/.bundle/config): "vendor/bundle"\n', 'd4c3b2a1:0f9e8d7c'],
  // commands whose output is a secret
  ['keepassxc-cli after the unlock prompt', '$ keepassxc-cli show -s vault.kdbx github -a Password\nEnter password to unlock vault.kdbx: \nkp-Orchid7731!\n', 'kp-Orchid7731!'],
  ['keepassxc-cli prompt without a line end', '$ keepassxc-cli show -s -a Password vault.kdbx mail\nEnter password to unlock vault.kdbx: Lantern-4412#x\n', 'Lantern-4412#x'],
  ['bitcoin-cli dumpprivkey, bad checksum', '$ bitcoin-cli -rpcwallet=main dumpprivkey bc1qxyz\nKx9mQ2pL7vR4tN6wZ8yB1cF3hJ5sD0gA2eU7iO9pM4nB6cV8xZ1q\n', 'Kx9mQ2pL7vR4tN6wZ8yB1cF3hJ5sD0gA2eU7iO9pM4nB6cV8xZ1q'],
  ['wg genkey', '$ wg genkey\nqJ3vT8xK2pL9nR4sW7yZ1bC6dF0gH5jA8kE3uI2oP4w=\n', 'qJ3vT8xK2pL9nR4sW7yZ1bC6dF0gH5jA8kE3uI2oP4w='],
  ['cat privatekey after wg genkey', '$ wg genkey > privatekey\n$ cat privatekey\nmB7cV2xZ9lK4jH6gF1dS8aQ3wE5rT0yU2iO7pM4nB6c=\n', 'mB7cV2xZ9lK4jH6gF1dS8aQ3wE5rT0yU2iO7pM4nB6c='],
  ['op read', '$ op read "op://Private/GitHub/password"\nHeron-Maple-5521\n', 'Heron-Maple-5521'],
  ['op item get --reveal', '$ op item get GitHub --fields label=credential --reveal\nglq-9Xv2Lm7Kp4\n', 'glq-9Xv2Lm7Kp4'],
  ['bw get password', '$ bw get password github.com\nRw7%kP2!nQmZ\n', 'Rw7%kP2!nQmZ'],
  ['lpass show --password', '$ lpass show --password Email/work\nFinch#2290-quay\n', 'Finch#2290-quay'],
  ['vault kv get -field', '$ vault kv get -field=db_password secret/app\nOtter_5512-Lark\n', 'Otter_5512-Lark'],
  ['aws configure get with a profile', '$ aws configure get prod.aws_secret_access_key\nQm7xWp2Lk9Vb4nTz8Hs1Jd6Fg3Rt5Yu0Io2Pa7Sd\n', 'Qm7xWp2Lk9Vb4nTz8Hs1Jd6Fg3Rt5Yu0Io2Pa7Sd'],
  ['gcloud auth print-access-token', '$ gcloud auth print-access-token\nya29.a0Ad52N3-Qm7xWp2Lk9Vb4nTz8Hs1Jd6Fg3Rt5Yu0\n', 'ya29.a0Ad52N3-Qm7xWp2Lk9Vb4nTz8Hs1Jd6Fg3Rt5Yu0'],
  ['az account get-access-token JSON', '$ az account get-access-token\n{\n  "accessToken": "Tq8Zx2Lm7Vp3Kw9Rn4Bs6Cd1Fg5Hj0",\n  "expiresOn": "2026-01-01 10:00:00.000000",\n  "tokenType": "Bearer"\n}\n', 'Tq8Zx2Lm7Vp3Kw9Rn4Bs6Cd1Fg5Hj0'],
  ['heroku auth:token', '$ heroku auth:token\n6f1a2c3d-9e8b-4a7c-b6d5-e4f3a2b1c0d9\n', '6f1a2c3d-9e8b-4a7c-b6d5-e4f3a2b1c0d9'],
  ['gh auth token', '$ gh auth token\ngho_Zr8Kq2Lm7Xv3Pz8Nw1Bc4Df6Gh9Jk0Lm2Np4\n', 'gho_Zr8Kq2Lm7Xv3Pz8Nw1Bc4Df6Gh9Jk0Lm2Np4'],
  ['kubectl create token', '$ kubectl create token builder -n ci\nkt-Qm7xWp2Lk9Vb4nTz8Hs1Jd\n', 'kt-Qm7xWp2Lk9Vb4nTz8Hs1Jd'],
  ['firebase login:ci token', '$ firebase login:ci\n\nWaiting for authentication...\n\n✔  Success! Use this token to login on a CI server:\n\n4/0AbCx-Qm7xWp2Lk9Vb4nTz8Hs1Jd6Fg3Rt5\n\nExample: firebase deploy --token "$FIREBASE_TOKEN"\n', '4/0AbCx-Qm7xWp2Lk9Vb4nTz8Hs1Jd6Fg3Rt5'],
  ['cat of an SSH askpass script', '$ cat ~/.ssh/askpass.sh\n#!/bin/sh\necho "Granite-Heron552#"\n', 'Granite-Heron552#'],
  ['askpass script written by a heredoc', "cat > /tmp/askpass <<'EOF'\n#!/bin/bash\nprintf '%s\\n' 'tulip.Quartz771'\nEOF\nchmod +x /tmp/askpass; SSH_ASKPASS=/tmp/askpass ssh-add key\n", 'tulip.Quartz771'],
  ['op item get --format json: CONCEALED field', '$ op item get GitHub --format json\n{\n  "fields": [\n    {\n      "id": "password",\n      "type": "CONCEALED",\n      "purpose": "PASSWORD",\n      "label": "password",\n      "value": "Vr8#nQ2!kLmZ",\n      "reference": "op://Private/GitHub/password"\n    }\n  ]\n}\n', 'Vr8#nQ2!kLmZ'],
  ['op item get --format json: concealed API field', '{"fields":[{"id":"k2j4","section":{"id":"add more"},"type":"CONCEALED","label":"deploy","value":"dq-7Hx2Mv9Lp4"}]}\n', 'dq-7Hx2Mv9Lp4'],
  ['op item get --format json: label names a secret', '{"fields":[{"id":"x1","type":"STRING","label":"api token","value":"at-5Kd8Lq2Zp7"}]}\n', 'at-5Kd8Lq2Zp7'],
];

/** [cause, text, text that must stay] */
const LOOKALIKES: [string, string, string][] = [
  ['an ordinary 12-word English sentence', 'Please review the draft and send your notes to the team before Friday morning, thanks.\n', 'send your notes to the team'],
  ['a BIP39-like sentence with a word not in the list', 'tornado squirrel pudding velvet ankle harbor mimic crystal enroll duty basket olivez\n', 'tornado squirrel pudding'],
  ['the JSON member after a phrase', `{"mnemonic":"${phrase(21)}","path":"m/44'/60'/0'/0"}\n`, '"path":"m/44\'/60\'/0\'/0"'],
  ['eleven list words', phrase(30, 11) + '\n', phrase(30, 11)],
  ['the BIP39 list itself (sorted)', BIP39_WORDS.slice(0, 48).join(' ') + '\n', 'abandon ability able about'],
  ['words glued by dashes (a slug)', 'branch: ' + phrase(31).split(' ').join('-') + '\n', phrase(31).split(' ').join('-')],
  ['a base58 address', 'address: 7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV\n', '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV'],
  ['a 52-character base58 run with a bad checksum, no key context', 'build id L4mQp8Xv2Lr9Kt6Wn3Bz7Cy5Df1Gh8Jk2Mn4Pq6Rs9Tu3Vw5Xy7Za done\n', 'L4mQp8Xv2Lr9Kt6Wn3Bz7Cy5Df1Gh8Jk2Mn4Pq6Rs9Tu3Vw5Xy7Za'],
  ['a WIF checksum test', `${isWifChecksum(W1) ? 'ok' : 'bad'} bitcoin txid 4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b\n`, '4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b'],
  ['64 numbers over 255', '[' + Array.from({ length: 64 }, (_, k) => 300 + k * 7).join(',') + ']\n', '300,307,314'],
  ['an RGB array', 'color = [255, 128, 0]\nbg: [12, 34, 56, 255]\n', '[255, 128, 0]'],
  ['a zero-filled 64-byte buffer', 'iv = [' + Array(64).fill(0).join(',') + ']\n', '0,0,0,0'],
  ['a 32-byte public key array', `pubkey: ${byteArray('pk', 32)}\n`, byteArray('pk', 32).slice(1, 30)],
  ['63 bytes', byteArray('short', 63) + '\n', byteArray('short', 63).slice(1, 30)],
  ['a public nodekey:', `nodekey:${hex64('n1')}\n`, hex64('n1')],
  ['a public discokey / pubkey', `discokey:${hex64('n2')} pubkey:${hex64('n3')}\n`, hex64('n3')],
  ['a transaction hash', `txHash: 0x${hex64('tx')}\n`, hex64('tx')],
  ['a block hash under a key-ish name', `blockHash: "0x${hex64('blk')}"\npublicKey: "0x${hex64('pub')}"\n`, hex64('pub')],
  ['a UUID-like product code', 'Product code: {90160000-008C-0000-0000-0000000FF1CE}\n', '{90160000-008C-0000-0000-0000000FF1CE}'],
  ['five groups of five with vowels and no key context', 'ticket ABCDE-12A45-FGH1J-K0LMN-PQ5ST\n', 'ABCDE-12A45-FGH1J-K0LMN-PQ5ST'],
  ['license block name and seat lines', '----- BEGIN LICENSE -----\nJane Roe\nSingle User License\nB4E3F1A0 92C7D5E8 6F1B0A39 C2D84E57\n------ END LICENSE ------\n', 'Jane Roe\nSingle User License'],
  ['a license file path', 'LicenseManager.setLicenseKey("/etc/app/license.lic");\nregisterLicense(process.env.SYNCFUSION_KEY);\n', '/etc/app/license.lic'],
  ['a licence name in prose', 'The MIT License applies; see LICENSE for details.\n', 'MIT License'],
  ['bundle config of a path', 'bundle config set --local path vendor/bundle\n', 'vendor/bundle'],
  ['bundle config listing of a setting', '$ bundle config\npath\nSet for your local app (/app/.bundle/config): "vendor/bundle"\n', 'vendor/bundle'],
  ['bundle config mirror URL', 'bundle config mirror.https://rubygems.org https://gems.example.net\n', 'https://gems.example.net'],
  ['wg pubkey output', '$ wg pubkey < privatekey\nHIgo9xNzJMWLKASShiTqIybxZ0U3wGLiUeJ1PKf8ykw=\n', 'HIgo9xNzJMWLKASShiTqIybxZ0U3wGLiUeJ1PKf8ykw='],
  ['wg genkey piped into wg pubkey', '$ wg genkey | tee privatekey | wg pubkey\nHIgo9xNzJMWLKASShiTqIybxZ0U3wGLiUeJ1PKf8ykw=\n', 'HIgo9xNzJMWLKASShiTqIybxZ0U3wGLiUeJ1PKf8ykw='],
  ['cat publickey', '$ cat publickey\nzX4cV7bN1mQ8wE2rT5yU9iO3pA6sD0fG4hJ7kL1zX4c=\n', 'zX4cV7bN1mQ8wE2rT5yU9iO3pA6sD0fG4hJ7kL1zX4c='],
  ['keepassxc-cli wrong password', '$ keepassxc-cli show -s vault.kdbx github -a Password\nEnter password to unlock vault.kdbx: \nError while reading the database: Invalid credentials\n', 'Invalid credentials'],
  ['askpass script echoing a variable', '$ cat askpass.sh\n#!/bin/sh\necho "$SSH_KEY_PASSPHRASE"\n', '$SSH_KEY_PASSPHRASE'],
  ['op item get --format json: a username field', '{"fields":[{"id":"username","type":"STRING","purpose":"USERNAME","label":"username","value":"octocat"}]}\n', 'octocat'],
  ['op item get --format json: a URL field', '{"urls":[{"label":"website","primary":true,"href":"https://github.com"}],"fields":[{"id":"notesPlain","type":"STRING","purpose":"NOTES","label":"notesPlain","value":"rotate yearly"}]}\n', 'rotate yearly'],
];

describe('round 9 causes: wallets, licenses and printed secrets go', () => {
  for (const [cause, text, secret] of SECRETS) {
    it(cause, () => {
      const out = redactText(text);
      expect(out, out).not.toContain(secret);
      expect(out).toContain('[REDACTED');
    });
  }
});

describe('round 9 causes: look-alikes stay', () => {
  for (const [cause, text, keep] of LOOKALIKES) {
    it(cause, () => {
      const out = redactText(text);
      expect(out, out).toContain(keep);
    });
  }
});

describe('the BIP39 list and the WIF checksum', () => {
  it('is bitcoin/bips bip-0039/english.txt, byte for byte', () => {
    expect(BIP39_WORDS.length).toBe(2048);
    expect(createHash('sha256').update(BIP39_WORDS.join('\n') + '\n').digest('hex')).toBe('2f5eed53a4727b4bf8880d8f3f199efc90e58503646d9ff8eff3a2ed3b24dbda');
  });
  it('accepts base58check keys and refuses a changed character', () => {
    for (const w of [W1, W2, W3]) expect(isWifChecksum(w), w).toBe(true);
    const changed = W1.slice(0, 10) + (W1[10] === 'a' ? 'b' : 'a') + W1.slice(11);
    expect(isWifChecksum(changed)).toBe(false);
  });
});

const SMALL = 128 * 1024;
const BIG = 1024 * 1024;
function reads(text: string): number {
  work.reads = 0;
  redactText(text);
  return work.reads;
}
const fill = (unit: string, n: number) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);

/** [detector, fragment it keys on] */
const FRAGMENTS: [string, string][] = [
  ['seed phrases: one list word', 'abandon '],
  ['seed phrases: list words in runs', phrase(40, 13) + '. '],
  ['WIF keys: bad checksums under a key label', 'key L4mQp8Xv2Lr9Kt6Wn3Bz7Cy5Df1Gh8Jk2Mn4Pq6Rs9Tu3Vw5Xy7Za '],
  ['WIF keys: one base58 run', 'K'],
  ['keypair arrays: unclosed arrays', '[1,2,3,'],
  ['keypair arrays: 32-byte arrays', 'seed ' + byteArray('lin', 32) + ' '],
  ['wallet hex keys: typed keys', `privkey:${hex64('lin')} `],
  ['wallet hex keys: 0x under a name', `PRIVATE_KEY=0x${hex64('lin')}\n`],
  ['license blocks: BEGIN lines', '----- BEGIN LICENSE -----\n'],
  ['product keys: five groups after product key', 'product key ABCDE-12A45-FGH1J-K0LMN-PQ5ST '],
  ['license calls: unclosed', 'setLicenseKey("'],
  ['gem credentials: bundle config', 'bundle config gems.contribsys.com a1:b2\n'],
  ['gem credentials: listing lines', 'gems.contribsys.com\nSet for the current user (x): "a:b"\n'],
  ['prompted secrets: unlock prompts', 'Enter password to unlock x.kdbx:\n'],
  ['askpass scripts: the word askpass', 'askpass\necho x\n'],
  ['1Password fields: concealed objects', '{"type":"CONCEALED","value":"x"},'],
  ['1Password fields: escaped quotes', '"CONCEALED" "\\'],
];

describe('the round 9 detectors do linear work', () => {
  for (const [name, unit] of FRAGMENTS) {
    it(`${name}: 8x the input costs about 8x the reads, and a bounded number per character`, () => {
      const a = reads(fill(unit, SMALL));
      const b = reads(fill(unit, BIG));
      expect(b / a, `${a} reads at 128 KB, ${b} at 1 MB`).toBeLessThanOrEqual(12);
      expect(b / BIG).toBeLessThanOrEqual(64);
    });
  }
});
