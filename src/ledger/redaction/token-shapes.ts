// Token shapes: secrets recognisable by their own form, wherever they stand.
// Each pattern starts with a literal prefix (the hints, tested with
// String.includes before any regex runs) and uses bounded repetition only,
// with no quantified group that contains a quantifier: matching is linear.
import { isPlaceholder } from './names';

export interface TokenShape {
  name: string;
  /** What a reader of docs/redaction.md recognises. */
  example: string;
  /** Literal substrings one of which every match contains. */
  hints: string[];
  re: RegExp;
  /** Index of the capture group that is the secret; 0 = the whole match. */
  group?: number;
  /** Extra shape check on the secret, to spare look-alikes. */
  check?: (m: string) => boolean;
  /**
   * For a pattern that starts with a class (a key before its literal part): the literal part, and
   * the pattern runs only on the lines that hold it (see anchored.ts). Such a pattern never spans a line end.
   */
  anchor?: RegExp;
}

// Class tests as constants: a regex literal in a check is a new RegExp per candidate token.
const DIGIT = /[0-9]/;
const UPPER = /[A-Z]/;
const LOWER = /[a-z]/;
const LETTER = /[A-Za-z]/;
const BEARER_PUNCT = /[+/=_-]/;
const mixed = (m: string) => DIGIT.test(m) && UPPER.test(m) && LOWER.test(m);
/** AWS's documentation keys end in EXAMPLE / EXAMPLEKEY. */
const notDocsExample = (m: string) => !m.includes('EXAMPLE');
const notAllOneClass = (m: string) => DIGIT.test(m) && LETTER.test(m);

/** Token prefixes whose base64 (at the start of an encoded value) marks an encoded token: decoded, the value must be that token. */
const B64_TOKENS: [string, RegExp][] = [
  ['ghp_', /^gh[pousr]_[A-Za-z0-9]{30,255}$/], ['gho_', /^gh[pousr]_[A-Za-z0-9]{30,255}$/], ['ghs_', /^gh[pousr]_[A-Za-z0-9]{30,255}$/],
  ['github_pat_', /^github_pat_[A-Za-z0-9_]{22,255}$/], ['glpat-', /^glpat-[A-Za-z0-9_-]{20,64}$/], ['dckr_pat_', /^dckr_pat_[A-Za-z0-9_-]{20,64}$/],
  ['pypi-AgE', /^pypi-AgE[A-Za-z0-9_-]{50,1024}$/], ['rubygems_', /^rubygems_[a-f0-9]{48}$/], ['npm_', /^npm_[A-Za-z0-9]{36}$/],
  ['cio', /^cio[A-Za-z0-9]{32}$/], ['sk_live_', /^[sr]k_live_[A-Za-z0-9]{16,255}$/], ['xoxb-', /^xox[abpe]-[A-Za-z0-9-]{10,250}$/], ['xoxp-', /^xox[abpe]-[A-Za-z0-9-]{10,250}$/],
  ['sk-ant-', /^sk-ant-[a-z]{2,8}\d{2}-[A-Za-z0-9_-]{20,255}$/], ['sk-proj-', /^sk-proj-[A-Za-z0-9_-]{20,255}$/], ['hf_', /^hf_[A-Za-z0-9]{30,40}$/],
  ['AKIA', /^AKIA[A-Z0-9]{16}$/], ['glrt-', /^glrt-[A-Za-z0-9_-]{20,64}$/], ['hvs.', /^hv[sb]\.[A-Za-z0-9_-]{20,400}$/],
];
const B64_PREFIX_HINTS = [...new Set(B64_TOKENS.map(([p]) => Buffer.from(p).toString('base64').slice(0, Math.floor(p.length / 3) * 4)))];
const B64_TOKEN = new RegExp(`\\b(?:${B64_PREFIX_HINTS.map((h) => h.replace(/[+/]/g, '\\$&')).join('|')})[A-Za-z0-9+/]{16,1400}={0,2}(?![A-Za-z0-9+/=])`, 'g');
function decodesToToken(m: string): boolean {
  const d = Buffer.from(m, 'base64').toString('latin1').replace(/\r?\n$/, '');
  return B64_TOKENS.some(([, re]) => re.test(d));
}

export const TOKEN_SHAPES: TokenShape[] = [
  { name: 'private-key', example: '-----BEGIN … PRIVATE KEY----- … -----END … PRIVATE KEY-----', hints: ['PRIVATE KEY'], re: /-----BEGIN[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----[\s\S]{0,20000}?(?:-----END[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----|$)/g },
  { name: 'pgp-private-key', example: '-----BEGIN PGP PRIVATE KEY BLOCK-----', hints: ['PGP PRIVATE'], re: /-----BEGIN PGP PRIVATE KEY BLOCK-----[\s\S]{0,40000}?(?:-----END PGP PRIVATE KEY BLOCK-----|$)/g },
  { name: 'putty-private-key', example: 'Private-Lines: 14 + base64 lines (.ppk)', hints: ['Private-Lines:'], re: /Private-Lines:[ \t]{0,4}\d{1,4}[ \t]{0,4}(?:\r?\n|\\n)([A-Za-z0-9+/=\r\n\\]{1,60000})/g, group: 1 },
  { name: 'age-secret-key', example: 'AGE-SECRET-KEY-1…', hints: ['AGE-SECRET-KEY-1'], re: /AGE-SECRET-KEY-1[0-9A-Z]{50,70}/g },
  { name: 'aws-access-key', example: 'AKIA… (20 characters)', hints: ['AKIA', 'ASIA', 'ABIA', 'ACCA', 'A3T'], re: /\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b/g, check: notDocsExample },
  // A 40-character secret right after its key id (credentials.csv, `aws iam create-access-key` tables) or its name.
  { name: 'aws-secret-key', example: 'AKIA…,<40 characters> or aws_secret_access_key <40 characters>', hints: ['AKIA', 'ASIA'], re: /\b(?:AKIA|ASIA)[A-Z0-9]{16}["']?[\s,;:|=\t]{1,12}["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/g, group: 1, check: notDocsExample },
  { name: 'aws-secret-key', example: 'SecretAccessKey: <40 characters>', hints: ['ecret', 'ECRET'], re: /(?:secret[_ -]?access[_ -]?key|SecretAccessKey|SECRET_ACCESS_KEY|aws_secret_key|AWS_SECRET_KEY|aws_secret|AWS_SECRET)["']?[\s,:=|]{1,12}["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi, group: 1, check: notDocsExample },
  { name: 'gcp-api-key', example: 'AIza…', hints: ['AIza'], re: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  { name: 'gcp-oauth-token', example: 'ya29.…', hints: ['ya29.'], re: /\bya29\.[0-9A-Za-z_-]{20,2048}/g },
  // Google's OAuth authorization codes (pasted back by `firebase login:ci`, `gcloud auth login --no-browser`) and refresh tokens.
  { name: 'gcp-oauth-code', example: '4/0A… (an authorization code), 1//0… (a refresh token)', hints: ['4/0A', '1//0'], re: /(?<![\w/])(?:4\/0A[0-9A-Za-z_-]{30,512}|1\/\/0[0-9A-Za-z_-]{30,512})/g },
  { name: 'google-refresh-token', example: '1//0…', hints: ['1//0'], re: /(?<![\w/])1\/\/0[A-Za-z0-9_-]{30,512}(?![A-Za-z0-9_-])/g, check: mixed },
  { name: 'google-oauth-secret', example: 'GOCSPX-…', hints: ['GOCSPX-'], re: /\bGOCSPX-[0-9A-Za-z_-]{20,64}/g },
  { name: 'azure-storage-key', example: 'AccountKey=…', hints: ['AccountKey='], re: /\bAccountKey=([A-Za-z0-9+/]{40,120}={0,2})/g, group: 1 },
  { name: 'azure-sas-signature', example: '?sig=…', hints: ['sig='], re: /[?&]sig=([A-Za-z0-9%+/]{20,256}={0,2})/g, group: 1 },
  { name: 'azure-client-secret', example: 'xxx8Q~…', hints: ['Q~'], re: /\b[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g, check: mixed },
  // A column or a log that cuts a token short (`docker ps`'s COMMAND, `--token ghp_KUR…`): what is shown is most of the
  // secret, and its prefix says what it is.
  { name: 'truncated-token', example: 'ghp_KURMbGCk… glpat-nlRj...', hints: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_', 'glpat-', 'glrt-', 'xoxb-', 'xoxa-', 'xoxp-', 'xoxe-', 'sk_live_', 'rk_live_', 'sk-proj-', 'sk-ant-', 'npm_', 'dckr_pat_', 'hf_', 'pypi-AgE', 'hvs.'], re: /\b(?:gh[pousr]_|github_pat_|glpat-|glrt-|xox[abpe]-|[sr]k_live_|sk-proj-|sk-ant-|npm_|dckr_pat_|hf_|pypi-AgE|hvs\.)[A-Za-z0-9_.-]{8,250}?(?=\u2026|\.\.\.)/g, check: (m) => DIGIT.test(m) || UPPER.test(m) },
  { name: 'github-token', example: 'ghp_ gho_ ghu_ ghs_ ghr_', hints: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'], re: /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,255}\b/g },
  { name: 'github-fine-grained-token', example: 'github_pat_…', hints: ['github_pat_'], re: /\bgithub_pat_[A-Za-z0-9_]{22,255}\b/g },
  { name: 'gitlab-token', example: 'glpat- gldt- glrt- glptt- glsoat- gloas- glcbt- glimt-', hints: ['glpat-', 'gldt-', 'glrt-', 'glptt-', 'glsoat-', 'gloas-', 'glcbt-', 'glimt-', 'glagent-', 'glffct-'], re: /\b(?:glpat|gldt|glrt|glptt|glsoat|gloas|glcbt|glimt|glagent|glffct)-[A-Za-z0-9_.-]{20,80}/g },
  { name: 'slack-token', example: 'xoxb- xoxp- xoxa- xoxe- xapp-', hints: ['xox', 'xapp-'], re: /\b(?:xox[abposre]|xapp)(?:-|\.xox[abpre]-)[A-Za-z0-9-]{10,250}/g, check: (m) => DIGIT.test(m) },
  { name: 'slack-webhook', example: 'https://hooks.slack.com/services/…', hints: ['hooks.slack.com'], re: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9/_-]{20,200}/g },
  { name: 'discord-webhook', example: 'https://discord.com/api/webhooks/…', hints: ['/api/webhooks/'], re: /\/api\/webhooks\/\d{5,30}\/([A-Za-z0-9_-]{30,120})/g, group: 1 },
  { name: 'telegram-bot-token', example: '123456789:AA… (also in api.telegram.org/bot… URLs)', hints: [':AA'], re: /(?<![0-9])\d{6,12}:AA[A-Za-z0-9_-]{30,40}(?![A-Za-z0-9_-])/g },
  // In the Bot API's URL the path says what follows /bot is a token, whatever its first letters.
  { name: 'telegram-bot-token', example: 'api.telegram.org/bot123456789:…/getMe', hints: ['telegram.org/'], re: /(?<=telegram\.org\/(?:file\/)?bot\d{6,12}:)[A-Za-z0-9_-]{30,40}(?![A-Za-z0-9_-])/g },
  { name: 'stripe-key', example: 'sk_live_ rk_live_ sk_test_', hints: ['_live_', '_test_'], re: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,255}\b/g },
  { name: 'stripe-webhook-secret', example: 'whsec_…', hints: ['whsec_'], re: /\bwhsec_[A-Za-z0-9+/]{24,128}/g },
  { name: 'anthropic-key', example: 'sk-ant-api03-…', hints: ['sk-ant-'], re: /\bsk-ant-[a-z]{2,8}\d{2}-[A-Za-z0-9_-]{20,255}/g },
  { name: 'openrouter-key', example: 'sk-or-v1-…', hints: ['sk-or-'], re: /\bsk-or-v1-[0-9a-f]{64}\b/g },
  { name: 'openai-key', example: 'sk-… sk-proj-… sk-svcacct-…', hints: ['sk-'], re: /\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,255}(?![A-Za-z0-9_-])/g, check: mixed },
  { name: 'npm-token', example: 'npm_…', hints: ['npm_'], re: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { name: 'pypi-token', example: 'pypi-AgE…', hints: ['pypi-'], re: /\bpypi-AgE[A-Za-z0-9_-]{50,255}/g },
  { name: 'huggingface-token', example: 'hf_…', hints: ['hf_'], re: /\bhf_[A-Za-z0-9]{30,40}\b/g, check: (m) => /[A-Z]/.test(m) && /[a-z]/.test(m.slice(3)) },
  { name: 'docker-pat', example: 'dckr_pat_…', hints: ['dckr_'], re: /\bdckr_(?:pat|oat)_[A-Za-z0-9_-]{20,64}/g },
  { name: 'atlassian-token', example: 'ATATT… ATCTT…', hints: ['ATATT', 'ATCTT'], re: /\bAT[AC]TT[A-Za-z0-9_=+/-]{20,400}/g },
  { name: 'bitbucket-app-password', example: 'ATBB…', hints: ['ATBB'], re: /\bATBB[A-Za-z0-9_=-]{20,80}/g },
  { name: 'vault-token', example: 'hvs. hvb. hvr.', hints: ['hvs.', 'hvb.', 'hvr.'], re: /\bhv[sbr]\.[A-Za-z0-9_-]{20,400}/g },
  { name: 'django-secret-key', example: 'django-insecure-…', hints: ['django-insecure-'], re: /django-insecure-[^\s'"`]{20,120}/g },
  { name: 'sendgrid-key', example: 'SG.….…', hints: ['SG.'], re: /\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,60}/g },
  // An Account SID (AC + 32 hex) names the account, as a user name does: it opens nothing without the auth token after it.
  { name: 'twilio-key', example: 'SK + 32 hex', hints: ['SK'], re: /\bSK[0-9a-f]{32}\b/g },
  // The auth token right after its account SID: Client('AC…', '<32 hex>'), AC…:<32 hex>.
  { name: 'twilio-auth-token', example: 'AC + 32 hex, then 32 hex', hints: ['AC'], re: /\bAC[0-9a-f]{32}["']?[ \t,:;=|]{1,6}["']?([0-9a-f]{32})(?![0-9A-Za-z])/g, group: 1 },
  { name: 'mailchimp-key', example: '<32 hex>-us6', hints: ['-us'], re: /\b[0-9a-f]{32}-us\d{1,2}\b/g, anchor: /-us\d/g },
  { name: 'fcm-server-key', example: 'AAAA…:APA91b…', hints: [':APA91b'], re: /\b[A-Za-z0-9_-]{7,12}:APA91b[A-Za-z0-9_-]{100,300}/g, anchor: /:APA91b/g },
  { name: 'digitalocean-token', example: 'dop_v1_ doo_v1_ dor_v1_', hints: ['_v1_'], re: /\bdo[opr]_v1_[a-f0-9]{64}\b/g },
  { name: 'shopify-token', example: 'shpat_ shpca_ shppa_ shpss_', hints: ['shpat_', 'shpca_', 'shppa_', 'shpss_'], re: /\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b/g },
  { name: 'mailgun-key', example: 'key-…', hints: ['key-'], re: /\bkey-[0-9a-z]{32}\b/g, check: notAllOneClass },
  { name: 'databricks-token', example: 'dapi…', hints: ['dapi'], re: /\bdapi[a-f0-9]{32}(?:-\d)?\b/g },
  { name: 'heroku-key', example: 'HRKU-…', hints: ['HRKU-'], re: /\bHRKU-[A-Za-z0-9_-]{30,80}/g },
  { name: 'linear-key', example: 'lin_api_…', hints: ['lin_api_'], re: /\blin_api_[A-Za-z0-9]{30,60}/g },
  { name: 'postman-key', example: 'PMAK-…', hints: ['PMAK-'], re: /\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}/g },
  { name: 'grafana-token', example: 'glsa_ glc_', hints: ['glsa_', 'glc_'], re: /\b(?:glsa|glc)_[A-Za-z0-9_+/=-]{30,200}/g },
  { name: 'newrelic-key', example: 'NRAK-…', hints: ['NRAK-', 'NRII-'], re: /\bNR(?:AK|II)-[A-Z0-9]{27}/g },
  { name: 'resend-key', example: 're_<8>_<24>', hints: ['re_'], re: /\bre_[A-Za-z0-9]{8}_[A-Za-z0-9]{20,32}\b/g, check: mixed },
  { name: 'planetscale-token', example: 'pscale_pw_ pscale_tkn_ pscale_oauth_', hints: ['pscale_'], re: /\bpscale_(?:pw|tkn|oauth)_[A-Za-z0-9_=.-]{32,64}/g },
  { name: 'prefect-key', example: 'pnu_ pnb_ + 36', hints: ['pnu_', 'pnb_'], re: /\bpn[ub]_[A-Za-z0-9]{36}\b/g },
  { name: 'fly-token', example: 'FlyV1 fm2_…', hints: ['fm1', 'fm2'], re: /\bfm[12][ar]?_[A-Za-z0-9+/=,_-]{40,4096}/g },
  { name: 'tailscale-key', example: 'tskey-auth-…-…', hints: ['skey-'], re: /\btskey-(?:auth-|client-|api-|scim-|webhook-)?[A-Za-z0-9]{8,24}-[A-Za-z0-9]{20,64}\b/g },
  { name: 'honeycomb-key', example: 'hcaik_ hcxik_', hints: ['hcaik_', 'hcxik_'], re: /\bhc[ax]ik_[a-z0-9]{50,70}\b/g },
  { name: 'doppler-token', example: 'dp.st. dp.ct. dp.sa. dp.pt. dp.scim. dp.audit.', hints: ['dp.st.', 'dp.ct.', 'dp.sa.', 'dp.pt.', 'dp.scim.', 'dp.audit.'], re: /\bdp\.(?:st|ct|sa|pt|scim|audit)\.[A-Za-z0-9_.-]{40,90}/g, check: mixed },
  { name: '1password-service-token', example: 'ops_eyJ…', hints: ['ps_eyJ'], re: /\bops_eyJ[A-Za-z0-9+/=_-]{100,4096}/g },
  { name: 'jfrog-token', example: 'AKCp… (73), cmVmdGtu…', hints: ['AKCp', 'cmVmdGtu'], re: /\b(?:AKCp[A-Za-z0-9]{60,80}|cmVmdGtuOjAxOj[A-Za-z0-9]{40,80})\b/g },
  { name: 'clojars-token', example: 'CLOJARS_ + 60 hex', hints: ['CLOJARS_'], re: /\bCLOJARS_[a-f0-9]{60}\b/g },
  { name: 'pulumi-token', example: 'pul- + 40 hex', hints: ['pul-'], re: /\bpul-[a-f0-9]{40}\b/g },
  { name: 'cloudflare-origin-ca-key', example: 'v1.0-<24 hex>-<146 hex>', hints: ['v1.0-'], re: /\bv1\.0-[a-f0-9]{24}-[a-f0-9]{146}\b/g },
  { name: 'teams-webhook', example: '…webhook.office.com/webhookb2/…/IncomingWebhook/…', hints: ['gWebhook/'], re: /\/IncomingWebhook\/([A-Za-z0-9/_-]{32,200})/g, group: 1 },
  { name: 'incoming-webhook', example: '…/hooks/<26 characters> (Mattermost)', hints: ['ks/'], re: /\/hooks\/([a-z0-9]{26})(?![A-Za-z0-9])/g, group: 1, check: notAllOneClass },
  { name: 'putty-mac', example: 'Private-MAC: <hex>', hints: ['-MAC:'], re: /Private-MAC:[ \t]{0,4}([0-9a-f]{40,64})/g, group: 1 },
  { name: 'minisign-secret-key', example: 'untrusted comment: … secret key / RW…', hints: ['\nRW'], re: /untrusted comment:[^\n]{0,80}secret key\r?\n(RW[A-Za-z0-9+/]{80,400}={0,2})/g, group: 1 },
  { name: 'brevo-key', example: 'xkeysib-<64 hex>-<16>', hints: ['xkeysib-', 'xsmtpsib-'], re: /\bx(?:keysib|smtpsib)-[a-f0-9]{64}-[A-Za-z0-9]{16}\b/g },
  { name: 'rubygems-key', example: 'rubygems_ + 48 hex', hints: ['ygems_'], re: /\brubygems_[a-f0-9]{48}\b/g },
  { name: 'nuget-key', example: 'oy2 + 43', hints: ['oy2'], re: /\boy2[a-z0-9]{43}\b/g, check: notAllOneClass },
  { name: 'sentry-token', example: 'sntrys_ sntryu_', hints: ['sntrys_', 'sntryu_'], re: /\bsntry[su]_[A-Za-z0-9+/=_-]{40,400}/g },
  { name: 'circleci-token', example: 'CCIPAT_…_<40 hex>', hints: ['CCIPAT_'], re: /\bCCIPAT_[A-Za-z0-9]{20,24}_[a-f0-9]{40}\b/g },
  { name: 'netlify-token', example: 'nfp_ nfc_', hints: ['nfp_', 'nfc_'], re: /\bnf[pc]_[A-Za-z0-9]{36,40}\b/g, check: mixed },
  { name: 'terraform-cloud-token', example: '<14>.atlasv1.<60+>', hints: ['sv1.'], re: /\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}/g, anchor: /\.atlasv1\./g },
  { name: 'buildkite-token', example: 'bkua_ + 40 hex', hints: ['bkua_'], re: /\bbkua_[a-f0-9]{40}\b/g },
  { name: 'dynatrace-token', example: 'dt0c01.<24>.<64>', hints: ['dt0c01.'], re: /\bdt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}\b/g },
  { name: 'supabase-token', example: 'sbp_ + 40 hex, sb_secret_', hints: ['sbp_', 'sb_secret_'], re: /\b(?:sbp_[a-f0-9]{40}|sb_secret_[A-Za-z0-9_-]{20,60})\b/g },
  { name: 'replicate-token', example: 'r8_ + 37', hints: ['r8_'], re: /\br8_[A-Za-z0-9]{37}\b/g, check: mixed },
  { name: 'groq-key', example: 'gsk_ + 52', hints: ['gsk_'], re: /\bgsk_[A-Za-z0-9]{52}\b/g, check: mixed },
  { name: 'perplexity-key', example: 'pplx- + 48', hints: ['pplx-'], re: /\bpplx-[A-Za-z0-9]{40,60}\b/g, check: notAllOneClass },
  { name: 'xai-key', example: 'xai- + 80', hints: ['xai-'], re: /\bxai-[A-Za-z0-9]{70,90}\b/g, check: mixed },
  { name: 'square-token', example: 'sq0atp- sq0csp-', hints: ['sq0atp', 'sq0csp'], re: /\bsq0(?:atp|csp)-[A-Za-z0-9_-]{22,60}/g },
  { name: 'braintree-token', example: 'access_token$production$…$…', hints: ['n$production$', 'n$sandbox$'], re: /\baccess_token\$(?:production|sandbox)\$[a-z0-9]{16}\$[a-f0-9]{32}\b/g },
  { name: 'mapbox-secret-token', example: 'sk.eyJ….…', hints: ['sk.eyJ'], re: /\bsk\.eyJ[A-Za-z0-9_-]{50,400}\.[A-Za-z0-9_-]{20,40}/g },
  { name: 'figma-token', example: 'figd_…', hints: ['gd_'], re: /\bfigd_[A-Za-z0-9_-]{40,60}/g },
  { name: 'notion-token', example: 'ntn_…', hints: ['tn_'], re: /\bntn_[A-Za-z0-9]{40,50}\b/g, check: mixed },
  { name: 'contentful-token', example: 'CFPAT-…', hints: ['CFPAT-'], re: /\bCFPAT-[A-Za-z0-9_-]{43}/g },
  { name: 'alibaba-access-key', example: 'LTAI…', hints: ['LTAI'], re: /\bLTAI[A-Za-z0-9]{20}\b/g, check: mixed },
  { name: 'pinecone-key', example: 'pcsk_…', hints: ['pcsk_'], re: /\bpcsk_[A-Za-z0-9_]{40,80}\b/g },
  { name: 'langsmith-key', example: 'lsv2_pt_ lsv2_sk_', hints: ['sv2_'], re: /\blsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}\b/g },
  { name: 'render-key', example: 'rnd_…', hints: ['rnd_'], re: /\brnd_[A-Za-z0-9]{28,40}\b/g, check: mixed },
  // aws iam create-access-key --output text: key id, creation time, then the secret.
  { name: 'aws-secret-key', example: 'AKIA…<TAB><date><TAB><40 characters>', hints: ['AKIA', 'ASIA'], re: /\b(?:AKIA|ASIA)[A-Z0-9]{16}\t\d{4}-\d\d-\d\dT[0-9:.+Z-]{8,25}\t([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/g, group: 1, check: notDocsExample },
  // STS session tokens: base64 of a protobuf that starts with the same bytes (IQoJb3JpZ2luX2Vj… = "!\n\torigin_ec", FwoGZXIvYXdz… = "\n\x06er/aws").
  { name: 'aws-session-token', example: 'IQoJb3JpZ2luX2Vj… FwoGZXIvYXdz…', hints: ['IQoJb3JpZ2lu', 'FwoGZXIvYXdz'], re: /\b(?:IQoJb3JpZ2luX2Vj|FwoGZXIvYXdz)[A-Za-z0-9+/]{100,4096}={0,2}/g },
  { name: 'airtable-pat', example: 'pat<14>.<64 hex>', hints: ['pat'], re: /\bpat[A-Za-z0-9]{14}\.[a-f0-9]{64}\b/g },
  { name: 'asana-pat', example: '2/<16 digits>/<16 digits>:<32 hex>, 1/<digits>:<32 hex>', hints: ['2/', '1/'], re: /\b(?:1\/\d{10,20}|2\/\d{10,20}\/\d{10,20}):[a-f0-9]{32}(?![A-Za-z0-9])/g },
  { name: 'twitch-oauth-token', example: 'oauth:<30>', hints: ['oauth:'], re: /\boauth:([a-z0-9]{30})(?![A-Za-z0-9])/g, group: 1, check: notAllOneClass },
  { name: 'crates-io-token', example: 'cio + 32', hints: ['cio'], re: /\bcio[A-Za-z0-9]{32}\b/g, check: mixed },
  { name: 'launchdarkly-key', example: 'sdk-<uuid> mob-<uuid> api-<uuid>', hints: ['sdk-', 'mob-'], re: /\b(?:sdk|mob)-[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}\b/g },
  { name: 'pagerduty-integration-key', example: 'events.pagerduty.com/integration/<32>/enqueue', hints: ['pagerduty.com/integration/'], re: /pagerduty\.com\/integration\/([A-Za-z0-9]{32})(?![A-Za-z0-9])/g, group: 1 },
  { name: 'zapier-webhook', example: 'hooks.zapier.com/hooks/catch/<account>/<hook>/', hints: ['hooks.zapier.com/'], re: /hooks\.zapier\.com\/hooks\/(?:catch|standard)\/\d{3,12}\/([A-Za-z0-9]{6,40})/g, group: 1 },
  { name: 'ifttt-webhook-key', example: 'maker.ifttt.com/trigger/<event>/with/key/<key>', hints: ['ifttt.com/'], re: /maker\.ifttt\.com\/(?:trigger\/[\w.-]{1,80}\/(?:json\/)?with\/key|use)\/([A-Za-z0-9_-]{16,64})/g, group: 1 },
  // az storage account keys list -o tsv: creation time, key name, permissions, value.
  { name: 'azure-storage-key', example: 'key1<TAB>FULL<TAB><88 base64>', hints: ['FULL\t', 'READ\t', 'Full\t', 'Read\t'], re: /\b(?:key|kerb)[12]\t(?:FULL|READ|Full|Read)\t([A-Za-z0-9+/]{40,120}={0,2})/g, group: 1 },
  // az acr credential show -o tsv: each password, then its name.
  { name: 'acr-password', example: '<password><TAB>password2', hints: ['\tpassword'], re: /(?<![^\n])([A-Za-z0-9+/=]{20,200})\tpassword2?(?=\r?\n|$)/g, group: 1, anchor: /\tpassword/g },
  // A token shape in base64 (echo "$TOKEN" | base64 in a CI log): the encoding of its prefix, checked by decoding.
  { name: 'base64-token', example: 'base64 of ghp_… dckr_pat_… pypi-AgE… rubygems_… cio…', hints: B64_PREFIX_HINTS, re: B64_TOKEN, check: decodesToToken },
  { name: 'bearer-token', example: 'Bearer|Token|Basic <16+ characters> outside a header', hints: ['Bearer', 'bearer', 'Token', 'token', 'Basic', 'BEARER'], re: /(?<![A-Za-z0-9_-])(?:Bearer|bearer|BEARER|Token|token|Basic)[ \t]{1,4}([A-Za-z0-9._~+/-]{16,4096}={0,2})/g, group: 1, check: (m) => (DIGIT.test(m) || BEARER_PUNCT.test(m)) && !isPlaceholder(m) },
  // aws configure's prompt: the current value in brackets, then what was typed.
  { name: 'aws-secret-key', example: 'AWS Secret Access Key [None]: <40 characters>', hints: ['Access Key ['], re: /Secret Access Key \[[^\]\n]{0,24}\]:[ \t]{0,4}([A-Za-z0-9/+=]{16,128})(?![A-Za-z0-9/+=])/gi, group: 1, check: notDocsExample },
  // Go's MySQL DSN has no scheme: user:password@tcp(host:3306)/db (the password may hold escaped quotes in a config string).
  { name: 'mysql-dsn', example: 'user:password@tcp(host)/db', hints: ['@tcp(', '@unix(', '@tcp6('], re: /(?<![\w.-])[A-Za-z0-9_.-]{1,64}:((?:[^@\s"'\\]|\\.){1,256})@(?:tcp6?|unix)\(/g, group: 1 },
  // ASP.NET Core data protection payloads (auth cookies, antiforgery tokens): CfDJ8 and the protected bytes.
  { name: 'aspnet-protected', example: 'CfDJ8…', hints: ['CfDJ8'], re: /\bCfDJ8[A-Za-z0-9_-]{50,8192}/g },
  // Google OAuth refresh tokens (firebase login:ci, gcloud): 1//0 then the token.
  { name: 'google-refresh-token', example: '1//0…', hints: ['1/'], re: /(?<![\w/])1\/\/0[A-Za-z0-9_-]{40,512}/g, check: mixed },
  // Discord bot tokens: the bot's id in base64, a timestamp, an HMAC.
  { name: 'discord-bot-token', example: '<base64 id>.<6>.<27+>', hints: ['MT', 'Mj', 'Mz', 'ND', 'NT', 'Nj', 'Nz', 'OD', 'OT'], re: /(?<![\w.-])[MNO][A-Za-z0-9_-]{22,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}(?![\w.-])/g, check: mixed, anchor: /\.[A-Za-z0-9_-]{6}\./g },
  // Ethereum RPC endpoints carry the project key in their path.
  { name: 'rpc-endpoint-key', example: 'mainnet.infura.io/v3/<key>, eth-mainnet.g.alchemy.com/v2/<key>', hints: ['infura.io/', 'alchemy.com/', 'alchemyapi.io/', 'quiknode.pro/'], re: /(?:infura\.io\/v3|alchemy\.com\/v2|alchemyapi\.io\/v2|quiknode\.pro)\/([A-Za-z0-9_-]{20,64})/g, group: 1 },
  { name: 'jwt', example: 'eyJ….eyJ….…', hints: ['eyJ'], re: /\beyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{2,8192}\.[A-Za-z0-9_-]{0,4096}/g },
  { name: 'tencent-secret-id', example: 'AKID + 32-36 characters', hints: ['AKID'], re: /\bAKID[A-Za-z0-9]{32,36}\b/g, check: mixed },
  { name: 'shippo-token', example: 'shippo_live_… shippo_test_…', hints: ['shippo_'], re: /\bshippo_(?:live|test)_[A-Za-z0-9]{32,64}\b/g },
  // OpenVPN's tls-auth/tls-crypt static key: hex lines between its armor (a class that stops at the END line's dashes, bounded).
  { name: 'openvpn-static-key', example: '-----BEGIN OpenVPN Static key V1----- … hex lines', hints: ['OpenVPN Static key'], re: /-----BEGIN OpenVPN Static key V\d-----[0-9A-Fa-f\s]{1,4096}(?:-----END OpenVPN Static key V\d-----)?/g },
  // SSH.com / RFC 4716 private keys: ---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ---- (four dashes and blanks, not PEM's five).
  { name: 'private-key', example: '---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----', hints: ['SSH2 ENCRYPTED PRIVATE KEY'], re: /---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----(?:[^-]|-(?!--- END)){1,20000}(?:---- END SSH2 ENCRYPTED PRIVATE KEY ----)?/g },
];
