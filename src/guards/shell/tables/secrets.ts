// What a secret looks like on disk, where credentials live, and how a
// command sends a file over the network. Tables only.

/** Basenames of secret files (tested case-insensitively where the pattern says so). */
export const SECRET_NAME_PATTERNS: RegExp[] = [
  /^\.env(?:\.[^/]+)?$/i,
  /^id_(?:rsa|dsa|ecdsa|ed25519|ecdsa_sk|ed25519_sk)(?:[_-][\w.-]+)?$/,
  /\.(?:pem|p12|pfx|keystore|jks|ppk|kdbx|key)$/i,
  /(?:^|[._-])private[._-]?key/i,
  /^(?:\.netrc|_netrc|\.pgpass|\.git-credentials|\.vault-token|credentials\.tfrc\.json|\.my\.cnf|\.s3cfg|\.boto|secrets?\.(?:ya?ml|json|toml)|service[-_]account[\w.-]*\.json|credentials\.(?:csv|json)|application_default_credentials\.json|\.htpasswd)$/i,
];

/** `.env` files that hold placeholders, not secrets. */
export const ENV_EXAMPLE = /^\.env\.(?:example|sample|template|dist|defaults|schema|test\.example|local\.example|example\.local)$|\.(?:pub|example|sample|template)$/i;

/** Concrete secret names a glob is tried against (`cat .e?v` reads `.env`). */
export const SECRET_SAMPLE_NAMES = ['.env', '.env.local', '.env.production', '.env.development', '.env.prod', 'id_rsa', 'id_ed25519', 'id_ecdsa', 'server.pem', 'private.key', 'tls.key', '.netrc', '.pgpass', '.git-credentials', 'credentials', 'config.json', 'credentials.tfrc.json', '.vault-token', 'shadow', 'secrets.yaml'];

/** Secret files under the home folder. */
export const HOME_SECRET_FILES = [
  '.aws/credentials', '.netrc', '.pgpass', '.git-credentials', '.docker/config.json', '.kube/config', '.config/gh/hosts.yml', '.npmrc', '.pypirc', '.vault-token',
  '.terraform.d/credentials.tfrc.json', '.config/gcloud/credentials.db', '.config/gcloud/access_tokens.db', '.config/gcloud/application_default_credentials.json', '.azure/accessTokens.json', '.azure/msal_token_cache.json',
  '.cargo/credentials', '.cargo/credentials.toml', '.gem/credentials', '.config/hub', '.boto', '.s3cfg', '.my.cnf', '.gnupg/secring.gpg', '.password-store', '.config/rclone/rclone.conf', '.oci/config', '.config/doctl/config.yaml',
];

/** Folders that hold credentials as a whole: copying or archiving one carries them off. Relative to home. */
export const CREDENTIAL_FOLDERS = ['.ssh', '.aws', '.gnupg', '.config/gcloud', '.azure', '.kube', '.docker', '.terraform.d', '.password-store', '.config/gh', '.oci', '.vault-token', '.docker/config.json', '.terraform.d/credentials.tfrc.json'];

/** Files in ~/.ssh that are public and fine to read. */
export const SSH_PUBLIC = /\.pub$|^known_hosts(?:\.old)?$|^config$|^authorized_keys2?$|^environment$/;

/** Absolute secret files of the system. */
export const SYSTEM_SECRET_FILES = ['/etc/shadow', '/etc/gshadow', '/etc/shadow-', '/etc/master.passwd', '/etc/ssh/ssh_host_rsa_key', '/etc/ssh/ssh_host_ecdsa_key', '/etc/ssh/ssh_host_ed25519_key', '/etc/ssh/ssh_host_dsa_key', '/root/.ssh', '/var/lib/sss'];

/** Programs that copy or archive whole folders (a credential folder given to one is carried off). */
export const FOLDER_CARRIERS = ['cp', 'scp', 'rsync', 'tar', 'bsdtar', 'gtar', 'zip', '7z', '7za', '7zz', 'rar', 'cpio', 'pax', 'ditto', 'rclone', 'gsutil', 'aws', 'az', 'restic', 'borg', 'duplicity', 'gzip', 'xz', 'zstd', 'base64', 'sftp'];

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
};

/** Programs that send their stdin or arguments to another host. */
export const NETWORK_SENDERS = ['curl', 'wget', 'nc', 'ncat', 'netcat', 'socat', 'telnet', 'ssh', 'scp', 'http', 'https', 'xh', 'openssl', 'gh', 'mail', 'sendmail', 'mutt', 'aws', 'gsutil', 'rclone', 'Invoke-WebRequest', 'Invoke-RestMethod', 'iwr', 'irm'];

/** Programs that print every environment variable. */
export const ENV_DUMPERS = ['env', 'printenv', 'set', 'export', 'declare', 'compgen'];

/**
 * Commands whose output is a secret (a private key, a secret access key):
 * printed, piped or written to a file it leaves the keychain (read-secret-file,
 * deny). Captured in `$(...)` it only fills a variable and is judged where
 * that variable is sent. Per program: the words (any of `options`, or the
 * subcommand path `sub` followed by an operand matching `key`).
 */
export const SECRET_PRINTERS: Record<string, { options?: string[]; sub?: string[]; key?: RegExp }> = {
  gpg: { options: ['--export-secret-keys', '--export-secret-subkeys', '--export-ssh-key'] },
  gpg2: { options: ['--export-secret-keys', '--export-secret-subkeys', '--export-ssh-key'] },
  aws: { sub: ['configure', 'get'], key: /(?:^|\.)aws_(?:secret_access_key|session_token)$/i },
};

/** Ordinary file names: a find name pattern that matches one of them is not a hunt for secrets. */
export const ORDINARY_SAMPLE_NAMES = ['package.json', 'tsconfig.json', 'index.ts', 'main.py', 'README.md', 'config.yaml', 'settings.py', 'data.txt', 'app.js', 'Makefile', 'notes.txt', 'out.log', 'docker-compose.yml', 'Cargo.toml'];
