// What a secret looks like on disk, where credentials live, and how a
// command sends a file over the network. Tables only.

/** Basenames of secret files (tested case-insensitively where the pattern says so). */
export const SECRET_NAME_PATTERNS: RegExp[] = [
  /^\.env(?:\.[^/]+)?$/i,
  /^id_(?:rsa|dsa|ecdsa|ed25519|ecdsa_sk|ed25519_sk)(?:[_-][\w.-]+)?$/,
  /\.(?:pem|p12|pfx|keystore|jks|ppk|kdbx|key)$/i,
  /(?:^|[._-])private[._-]?key/i,
  // Browsers' and password managers' stores: cookies, saved logins, their keys.
  /^(?:cookies\.sqlite|logins\.json|key[34]\.db|signons\.sqlite|Login Data|Web Data|Local State|\.?keychain-db|login\.keychain(?:-db)?)$/,
  /^(?:\.netrc|_netrc|\.pgpass|\.git-credentials|\.vault-token|credentials\.tfrc\.json|\.my\.cnf|\.s3cfg|\.boto|secrets?\.(?:ya?ml|json|toml)|service[-_]account[\w.-]*\.json|credentials\.(?:csv|json)|application_default_credentials\.json|\.htpasswd)$/i,
];

/** Basenames that say they hold a secret, for files in the home folder's dot folders (`~/.config/hub-token`, `~/.docker/token`); in a project they are code. */
export const HOME_SECRET_NAMES = /(?:^|[._-])(?:token|tokens|secret|secrets|credential|credentials|creds|apikey|api[._-]key|password|passwd|passphrase)(?:$|[._-])/i;

/** `.env` files that hold placeholders, not secrets. */
export const ENV_EXAMPLE = /^\.env\.(?:example|sample|template|dist|defaults|schema|test\.example|local\.example|example\.local)$|\.(?:pub|example|sample|template)$/i;

/** Concrete secret names a glob is tried against (`cat .e?v` reads `.env`). */
export const SECRET_SAMPLE_NAMES = ['.env', '.env.local', '.env.production', '.env.development', '.env.prod', 'id_rsa', 'id_ed25519', 'id_ecdsa', 'server.pem', 'private.key', 'tls.key', '.netrc', '.pgpass', '.git-credentials', 'credentials', 'config.json', 'credentials.tfrc.json', '.vault-token', 'shadow', 'secrets.yaml'];

/** Secret files under the home folder. */
export const HOME_SECRET_FILES = [
  '.aws/credentials', '.netrc', '.pgpass', '.git-credentials', '.docker/config.json', '.kube/config', '.config/gh/hosts.yml', '.npmrc', '.pypirc', '.vault-token',
  '.terraform.d/credentials.tfrc.json', '.config/gcloud/credentials.db', '.config/gcloud/access_tokens.db', '.config/gcloud/application_default_credentials.json', '.azure/accessTokens.json', '.azure/msal_token_cache.json',
  '.bash_history', '.zsh_history', '.zhistory', '.history', '.sh_history', '.local/share/fish/fish_history', '.python_history', '.node_repl_history', '.psql_history', '.mysql_history', '.sqlite_history', '.rediscli_history', '.irb_history', '.lesshst', '.viminfo', '.wget-hsts',
  '.mozilla/firefox', '.config/google-chrome', '.config/chromium', '.config/BraveSoftware', '.config/microsoft-edge', 'Library/Application Support/Google/Chrome', 'Library/Application Support/Firefox', 'Library/Keychains', '.local/share/keyrings', '.config/Code/User/globalStorage/state.vscdb', '.config/Slack/Cookies',
  // Build tools' and registries' settings, which hold the publishing tokens and passwords.
  '.gradle/gradle.properties', '.m2/settings.xml', '.m2/settings-security.xml', '.config/composer/auth.json', '.composer/auth.json', '.nuget/NuGet/NuGet.Config', '.config/NuGet/NuGet.Config', '.ivy2/.credentials', '.sbt/.credentials', '.config/pip/pip.conf', '.pip/pip.conf', '.bundle/config', '.config/op', '.config/glab-cli/config.yml', '.config/heroku', '.netlify/config.json', '.config/netlify/config.json', '.vercel/auth.json', '.local/share/com.vercel.cli/auth.json', '.fly/config.yml', '.wrangler/config/default.toml', '.config/.wrangler/config/default.toml', '.ngrok2/ngrok.yml', '.config/ngrok/ngrok.yml', '.config/stripe/config.toml', '.databrickscfg', '.snowsql/config', '.pulumi/credentials.json', '.config/helm/repositories.yaml', '.arduino15/arduino-cli.yaml',
  '.cargo/credentials', '.cargo/credentials.toml', '.gem/credentials', '.config/hub', '.boto', '.s3cfg', '.my.cnf', '.gnupg/secring.gpg', '.password-store', '.config/rclone/rclone.conf', '.oci/config', '.config/doctl/config.yaml',
];

/** Clients that send the paths they are given to another machine, whatever their subcommand (`gcloud storage cp -r DIR gs://…`, `croc send DIR`). */
export const CLOUD_COPIERS = ['gcloud', 'wormhole', 'magic-wormhole', 'croc', 'ffsend', 'transfersh', 'azcopy', 'b2', 'mc', 's3cmd', 's5cmd', 'oci'];

/** File-transfer clients whose own command scripts (`lftp -e 'put F'`, `smbclient -c 'put F'`, ftp's stdin) send local files. */
export const TRANSFER_SCRIPTS: Record<string, string[]> = { lftp: ['-e', '-c'], smbclient: ['-c', '--command'], ftp: [], sftp: [], tftp: ['-c'], ncftp: [], yafc: [] };
/** The commands of those scripts that send a local file: the operands are local paths. */
export const TRANSFER_SENDS = /^(?:put|mput|reput|send|append|mirror\s+-R|mirror\s+--reverse)$/;

/** Folders that hold credentials as a whole: copying or archiving one carries them off. Relative to home. */
export const CREDENTIAL_FOLDERS = ['.ssh', '.aws', '.gnupg', '.config/gcloud', '.azure', '.kube', '.docker', '.terraform.d', '.password-store', '.config/gh', '.oci', '.vault-token', '.docker/config.json', '.terraform.d/credentials.tfrc.json'];

/** Files in ~/.ssh that are public and fine to read. */
export const SSH_PUBLIC = /\.pub$|^known_hosts(?:\.old)?$|^config$|^authorized_keys2?$|^environment$/;

/** Absolute secret files of the system. */
export const SYSTEM_SECRET_FILES = ['/run/secrets', '/var/run/secrets', '/var/run/secrets/eks.amazonaws.com/serviceaccount/token', '/etc/shadow', '/etc/gshadow', '/etc/shadow-', '/etc/master.passwd', '/etc/ssh/ssh_host_rsa_key', '/etc/ssh/ssh_host_ecdsa_key', '/etc/ssh/ssh_host_ed25519_key', '/etc/ssh/ssh_host_dsa_key', '/root/.ssh', '/var/lib/sss'];

/** Programs that copy or archive whole folders (a credential folder given to one is carried off). */
export const FOLDER_CARRIERS = ['cp', 'install', 'ln', 'scp', 'rsync', 'tar', 'bsdtar', 'gtar', 'zip', '7z', '7za', '7zz', 'rar', 'cpio', 'pax', 'ditto', 'rclone', 'gsutil', 'aws', 'az', 'restic', 'borg', 'duplicity', 'gzip', 'xz', 'zstd', 'base64', 'sftp', ...CLOUD_COPIERS];

/**
 * How network clients send a file's content: per program, the options whose
 * value names a file to send (`@` marks "file when the value starts with or
 * holds @", `<` likewise for curl's -F name=<file).
 */
export const UPLOAD_OPTIONS: Record<string, { file: string[]; at: string[] }> = {
  curl: { file: ['-T', '--upload-file', '--netrc-file', '--cert', '--key'], at: ['-d', '--data', '--data-binary', '--data-raw', '--data-ascii', '--data-urlencode', '--json', '-F', '--form', '--form-string', '-H', '--header'] },
  wget: { file: ['--post-file', '--body-file', '--input-file', '-i'], at: [] },
  http: { file: [], at: [] },
  https: { file: [], at: [] },
  xh: { file: [], at: [] },
  // gh api -F 'files[k][content]=@FILE', --input FILE; gh pr/issue create --body-file FILE: the file goes to GitHub.
  gh: { file: ['--input', '--body-file'], at: ['-F', '--field', '-f', '--raw-field'] },
  // Attachments: mutt -a FILE, mail/mailx/s-nail -a / -A FILE.
  mutt: { file: ['-a', '-i', '-H'], at: [] },
  mail: { file: ['-a', '-A'], at: [] },
  mailx: { file: ['-a', '-A'], at: [] },
  's-nail': { file: ['-a'], at: [] },
};

/** Programs that send their stdin or arguments to another host. */
// DNS clients and ping send the name they look up: a secret in it leaves in the query (`dig "$TOKEN".x.example`).
export const NETWORK_SENDERS = ['curl', 'wget', 'nc', 'ncat', 'netcat', 'socat', 'telnet', 'ssh', 'scp', 'http', 'https', 'xh', 'openssl', 'gh', 'mail', 'sendmail', 'mutt', 'aws', 'gsutil', 'rclone', 'Invoke-WebRequest', 'Invoke-RestMethod', 'iwr', 'irm', 'dig', 'nslookup', 'host', 'drill', 'kdig', 'ping', 'ping6', 'sftp', 'ftp', 'lftp'];

/** Programs that print every environment variable. */
/** JSON processors whose filter language reads the environment (`jq -n env`, `$ENV`): a filter of that is a dump. */
export const JQ_ENV_READERS = ['jq', 'gojq', 'jaq', 'yq'];
export const ENV_DUMPERS = ['env', 'printenv', 'set', 'export', 'declare', 'typeset', 'compgen', ...JQ_ENV_READERS];

/**
 * Commands whose output is a secret (a private key, a secret access key):
 * printed, piped or written to a file it leaves the keychain (read-secret-file,
 * deny). Captured in `$(...)` it only fills a variable and is judged where
 * that variable is sent. Per program: the words (any of `options`, or the
 * subcommand path `sub` followed by an operand matching `key`).
 */
export interface SecretPrinter {
  /** Any of these options (gpg accepts an unambiguous prefix). */
  options?: string[];
  /** The subcommand path (operands in order). */
  sub?: string[];
  /** The operand after `sub` must match (aws configure get KEY). */
  key?: RegExp;
  /** Some word must match too (kubectl get secret ... -o yaml; security ... -w). */
  with?: RegExp;
}

const OUTPUT_FORMAT = /^(?:-o|--output)(?:=|$)|^-o\S|^--template/;
const KEYCHAIN_SHOW = /^-[a-zA-Z]*[wg][a-zA-Z]*$/;
export const SECRET_PRINTERS: Record<string, SecretPrinter[]> = {
  gpg: [{ options: ['--export-secret-keys', '--export-secret-subkeys', '--export-ssh-key'] }],
  gpg2: [{ options: ['--export-secret-keys', '--export-secret-subkeys', '--export-ssh-key'] }],
  aws: [{ sub: ['configure', 'get'], key: /(?:^|\.)aws_(?:secret_access_key|session_token)$/i }, { sub: ['configure', 'export-credentials'] }, { sub: ['ecr', 'get-login-password'] }, { sub: ['sts', 'get-session-token'] }, { sub: ['secretsmanager', 'get-secret-value'] }, { sub: ['ssm', 'get-parameter'], with: /^--with-decryption$/ }, { sub: ['ssm', 'get-parameters'], with: /^--with-decryption$/ }],
  gh: [{ sub: ['auth', 'token'] }, { sub: ['auth', 'status'], with: /^(?:-t|--show-token)$/ }],
  glab: [{ sub: ['auth', 'token'] }],
  gcloud: [{ sub: ['auth', 'print-access-token'] }, { sub: ['auth', 'print-identity-token'] }, { sub: ['auth', 'application-default', 'print-access-token'] }, { sub: ['secrets', 'versions', 'access'] }, { sub: ['config', 'config-helper'] }],
  az: [{ sub: ['account', 'get-access-token'] }, { sub: ['keyvault', 'secret', 'show'] }, { sub: ['keyvault', 'secret', 'download'] }],
  kubectl: [{ sub: ['get'], key: /^secrets?(?:\/.*|,.*)?$/, with: OUTPUT_FORMAT }, { sub: ['config', 'view'], with: /^--raw$/ }],
  oc: [{ sub: ['get'], key: /^secrets?(?:\/.*|,.*)?$/, with: OUTPUT_FORMAT }, { sub: ['whoami'], with: /^(?:-t|--show-token)$/ }],
  security: [{ sub: ['find-generic-password'], with: KEYCHAIN_SHOW }, { sub: ['find-internet-password'], with: KEYCHAIN_SHOW }, { sub: ['dump-keychain'] }, { sub: ['export'] }],
  // secret-tool search shows the secrets of the items it finds (--all: of every one).
  'secret-tool': [{ sub: ['lookup'] }, { sub: ['search'] }],
  vault: [{ sub: ['kv', 'get'] }, { sub: ['read'] }, { sub: ['print', 'token'] }],
  op: [{ sub: ['read'] }, { sub: ['item', 'get'], with: /^--(?:fields|reveal|format)/ }],
  doppler: [{ sub: ['secrets'] }, { sub: ['configure', 'get', 'token'] }],
  heroku: [{ sub: ['auth:token'] }, { sub: ['config'] }],
  git: [{ sub: ['credential', 'fill'] }, { sub: ['credential-store', 'get'] }],
  'docker-credential-desktop': [{ sub: ['get'] }, { sub: ['list'] }],
  'docker-credential-pass': [{ sub: ['get'] }],
  'docker-credential-secretservice': [{ sub: ['get'] }],
  'docker-credential-osxkeychain': [{ sub: ['get'] }],
  'docker-credential-gcloud': [{ sub: ['get'] }],
  'docker-credential-ecr-login': [{ sub: ['get'] }],
  'pass': [{ sub: ['show'] }],
  'keyring': [{ sub: ['get'] }],
  'npm': [{ sub: ['token', 'create'] }, { sub: ['config', 'get'], key: /(?:_auth(?:Token)?|_password)$/ }],
  'wrangler': [{ sub: ['whoami'], with: /^--show-token$/ }],
  'firebase': [{ sub: ['login:ci'] }],
  getent: [{ sub: ['shadow'] }, { sub: ['gshadow'] }],
  // gh auth status -t prints the token; npm/pnpm/yarn config get of an auth key prints it.
  pnpm: [{ sub: ['config', 'get'], key: /(?:_auth(?:Token)?|_password|npmAuthToken)$/ }],
  yarn: [{ sub: ['config', 'get'], key: /(?:_auth(?:Token)?|_password|npmAuthToken)$/ }],
};

/** Cloud instance metadata services: a read of their credential paths hands over the machine's cloud role. */
export const METADATA_HOSTS = ['169.254.169.254', 'metadata.google.internal', 'metadata', '169.254.170.2', 'fd00:ec2::254', '[fd00:ec2::254]', '100.100.100.200'];
export const METADATA_SECRET_PATHS = /security-credentials|\/identity|\/token|service-accounts\/[^/]+\/(?:token|identity)|\/credentials|api\/token|instance\/attributes|msi\/token|metadata\/identity/i;

/**
 * Commands whose output holds the secrets of a configuration once resolved (`docker compose config` fills in the
 * .env values): fine to read at the terminal, a leak when piped to the network.
 */
export const CONFIG_PRINTERS: string[][] = [['docker', 'compose', 'config'], ['docker-compose', 'config'], ['podman-compose', 'config'], ['kubectl', 'config', 'view'], ['helm', 'get', 'values'], ['terraform', 'output'], ['tofu', 'output'], ['terraform', 'state', 'pull'], ['tofu', 'state', 'pull'], ['terraform', 'show'], ['tofu', 'show'], ['pulumi', 'stack', 'export'], ['pulumi', 'config'], ['heroku', 'config'], ['fly', 'secrets'], ['vercel', 'env'], ['netlify', 'env:list'], ['doppler', 'run'], ['aws', 'configure', 'list'], ['git', 'config', '--list']];

/**
 * Environment variable names that hold a secret (a `_`-separated part of the name is one of these, or the whole
 * name is a connection string): expanded into a URL, a body or a socket they leave the machine. PWD is the folder.
 */
export const SECRET_VAR_PARTS = ['TOKEN', 'TOKENS', 'SECRET', 'SECRETS', 'PASSWORD', 'PASSWD', 'PASS', 'PASSPHRASE', 'PW', 'APIKEY', 'KEY', 'CREDENTIAL', 'CREDENTIALS', 'CREDS', 'AUTH', 'COOKIE', 'SESSION', 'DSN', 'PAT', 'JWT', 'BEARER', 'SIGNATURE', 'CERT', 'PRIVATE'];
export const SECRET_VAR_NAMES = /^(?:DATABASE_URL|DB_URL|REDIS_URL|MONGO(?:DB)?_UR[IL]|POSTGRES(?:QL)?_URL|MYSQL_URL|AMQP_URL|RABBITMQ_URL|SENTRY_DSN|WEBHOOK_URL|SLACK_WEBHOOK(?:_URL)?|DISCORD_WEBHOOK(?:_URL)?)$/;
/** A secret variable's first name part -> the host words of its own service (it may go there). */
export const SECRET_VAR_SERVICES: Record<string, string[]> = {
  GITHUB: ['github'], GH: ['github'], GITLAB: ['gitlab'], GL: ['gitlab'], OPENAI: ['openai'], ANTHROPIC: ['anthropic'], CLAUDE: ['anthropic'], STRIPE: ['stripe'], SLACK: ['slack'], DISCORD: ['discord'], TELEGRAM: ['telegram'], TWILIO: ['twilio'], SENDGRID: ['sendgrid'],
  AWS: ['amazonaws', 'aws'], AZURE: ['azure', 'microsoft'], GOOGLE: ['googleapis', 'google'], GCP: ['googleapis'], GEMINI: ['googleapis'], HF: ['huggingface'], HUGGINGFACE: ['huggingface'], CLOUDFLARE: ['cloudflare'], CF: ['cloudflare'], VERCEL: ['vercel'], NETLIFY: ['netlify'],
  NPM: ['npmjs'], PYPI: ['pypi'], DOCKER: ['docker'], DOCKERHUB: ['docker'], SENTRY: ['sentry'], DATADOG: ['datadoghq'], DD: ['datadoghq'], NOTION: ['notion'], LINEAR: ['linear'], JIRA: ['atlassian'], ATLASSIAN: ['atlassian'], SUPABASE: ['supabase'], FIREBASE: ['googleapis', 'firebase'],
  MAILGUN: ['mailgun'], POSTMARK: ['postmarkapp'], HEROKU: ['heroku'], DIGITALOCEAN: ['digitalocean'], DO: ['digitalocean'], RENDER: ['render'], FLY: ['fly'], ALGOLIA: ['algolia'], PINECONE: ['pinecone'], REPLICATE: ['replicate'], MISTRAL: ['mistral'], GROQ: ['groq'], COHERE: ['cohere'], DEEPSEEK: ['deepseek'], OPENROUTER: ['openrouter'], PERPLEXITY: ['perplexity'], ELEVENLABS: ['elevenlabs'], SHOPIFY: ['shopify', 'myshopify'], PAYPAL: ['paypal'], BITBUCKET: ['bitbucket'], CIRCLECI: ['circleci'], CODECOV: ['codecov'], TRAVIS: ['travis'],
};
/** Variables that are not secrets whatever was loaded (folders, the user, the shell). */
export const PLAIN_VARS = ['HOME', 'PWD', 'OLDPWD', 'PATH', 'USER', 'LOGNAME', 'SHELL', 'TMPDIR', 'TERM', 'LANG', 'HOSTNAME', 'CI', 'NODE_ENV', 'PORT', 'HOST', 'RANDOM', 'SECONDS', 'LINENO', 'UID', 'EUID', 'PPID', 'BASHPID', 'GITHUB_REPOSITORY', 'GITHUB_SHA', 'GITHUB_REF', 'VERSION', 'TAG', 'BRANCH'];

/** Programs whose output is the shell's history (it holds every secret typed): sent over the network it leaves. */
export const HISTORY_PRINTERS = ['history', 'fc'];

/** Ordinary file names: a find name pattern that matches one of them is not a hunt for secrets. */
export const ORDINARY_SAMPLE_NAMES = ['package.json', 'tsconfig.json', 'index.ts', 'main.py', 'README.md', 'config.yaml', 'settings.py', 'data.txt', 'app.js', 'Makefile', 'notes.txt', 'out.log', 'docker-compose.yml', 'Cargo.toml'];

/**
 * Servers of a folder over the network: serving a credential folder (or one holding it) hands its files to
 * anyone who connects. Per program: the options whose value is the folder, whether the first operand is
 * it, and (python, ruby) the module or word that makes the program a server. Otherwise the folder it runs in.
 */
export const FOLDER_SERVERS: Record<string, { dirFlags: string[]; operand?: boolean; when?: (argv: string[]) => boolean }> = {
  python: { dirFlags: ['--directory', '-d'], when: (a) => a.some((x, i) => (x === '-m' && /^(?:http\.server|SimpleHTTPServer)$/.test(a[i + 1] ?? '')) || /^-m(?:http\.server|SimpleHTTPServer)$/.test(x)) },
  httpd: { dirFlags: ['-h'] },
  php: { dirFlags: ['-t'], when: (a) => a.some((x) => x === '-S' || x.startsWith('-S')) },
  'http-server': { dirFlags: [], operand: true },
  serve: { dirFlags: [], operand: true },
  'live-server': { dirFlags: [], operand: true },
  darkhttpd: { dirFlags: [], operand: true },
  webfsd: { dirFlags: ['-r'] },
  ruby: { dirFlags: [], operand: true, when: (a) => a.includes('httpd') && a.some((x) => x === '-run' || x === '-r') },
  caddy: { dirFlags: ['--root', '-r'], when: (a) => a.includes('file-server') },
};
