// Package installers and their option grammar: which subcommands install,
// which options take a value, and which options name where packages come
// from. A package installed from a URL, a git repository or a plain-http
// index runs its build and install scripts from a source no registry has
// seen (`install-from-url`, ask); a registry package, a local path and a
// requirements file stay everyday work. families/installs.ts reads it;
// docs/guard.md lists it.

export interface Installer {
  /** The words after the program that make it install (any one of the lists, in order). */
  subcommands: string[][];
  /** Options that take the next word as their value (or `=value`). */
  withArg: string[];
  /** Options whose value is a source of packages: an index, a registry, a git repository. */
  sources: string[];
  /** Options whose value is itself a package spec (`pip install -e git+https://...`). */
  specOptions: string[];
  /** Whether a bare `owner/repo` operand is a GitHub repository (npm, yarn, pnpm, bun). */
  githubShorthand: boolean;
  /** Installs only with one of these flags (rpm -i / -U), when it has no subcommand. */
  onlyWith?: string[];
}

const pip: Installer = {
  subcommands: [['install'], ['download'], ['wheel']],
  withArg: ['-r', '--requirement', '-c', '--constraint', '-e', '--editable', '-t', '--target', '--platform', '--python-version', '--implementation', '--abi', '--root', '--prefix', '--src', '--upgrade-strategy', '--global-option', '--install-option', '-C', '--config-settings', '--no-binary', '--only-binary', '--progress-bar', '--python', '--log', '--proxy', '--retries', '--timeout', '--exists-action', '--trusted-host', '--cert', '--client-cert', '--cache-dir', '--report', '-i', '--index-url', '--extra-index-url', '-f', '--find-links'],
  sources: ['-i', '--index-url', '--extra-index-url', '-f', '--find-links'],
  specOptions: ['-e', '--editable'],
  githubShorthand: false,
};
const npm: Installer = {
  subcommands: [['install'], ['i'], ['add'], ['in'], ['ins'], ['inst'], ['insta'], ['instal'], ['isnt'], ['isnta'], ['isntal'], ['isntall'], ['global', 'add']],
  withArg: ['--registry', '--prefix', '-C', '--dir', '--cwd', '--workspace', '-w', '--filter', '--tag', '--save-prefix', '--cache', '--userconfig'],
  sources: ['--registry'],
  specOptions: [],
  githubShorthand: true,
};

/** URLs of the registries themselves: a package fetched from one by URL is a registry's package (deno installs by URL as a rule). */
export const REGISTRY_URLS = ['https://deno.land/', 'https://jsr.io/', 'https://registry.npmjs.org/', 'https://registry.yarnpkg.com/', 'https://files.pythonhosted.org/', 'https://pypi.org/', 'https://rubygems.org/', 'https://crates.io/'];

const system: Installer = { subcommands: [['install'], ['reinstall'], ['localinstall'], ['upgrade']], withArg: ['-o', '-c', '-t', '--target-release', '--option', '--config-file', '--releasever', '--setopt', '--repo', '--enablerepo', '--disablerepo', '--installroot'], sources: ['--repofrompath'], specOptions: [], githubShorthand: false };

export const INSTALLERS: Record<string, Installer> = {
  apt: system,
  'apt-get': system,
  dnf: system,
  yum: system,
  zypper: { ...system, subcommands: [['install'], ['in']] },
  rpm: { subcommands: [[]], withArg: ['--root', '--dbpath', '--prefix', '--relocate'], sources: [], specOptions: [], githubShorthand: false, onlyWith: ['-i', '-U', '-F', '--install', '--upgrade', '--freshen', '-ivh', '-Uvh', '-Fvh'] },
  brew: { subcommands: [['install'], ['reinstall']], withArg: [], sources: [], specOptions: [], githubShorthand: false },
  conda: { subcommands: [['install'], ['create'], ['update']], withArg: ['-c', '--channel', '-n', '--name', '-p', '--prefix', '--file'], sources: ['-c', '--channel'], specOptions: [], githubShorthand: false },
  mamba: { subcommands: [['install'], ['create'], ['update']], withArg: ['-c', '--channel', '-n', '--name', '-p', '--prefix', '--file'], sources: ['-c', '--channel'], specOptions: [], githubShorthand: false },
  deno: { subcommands: [['install'], ['add']], withArg: ['-n', '--name', '--root', '-c', '--config', '--import-map', '--lock', '--cert', '--location', '--seed', '--v8-flags'], sources: [], specOptions: [], githubShorthand: false },
  pip,
  pip3: pip,
  'uv pip': pip,
  'python -m pip': pip,
  'python3 -m pip': pip,
  uv: { ...pip, subcommands: [['add'], ['tool', 'install']], withArg: [...pip.withArg, '--index', '--default-index', '--with', '--from', '--python', '-p'], sources: [...pip.sources, '--index', '--default-index'] },
  pipx: { ...pip, subcommands: [['install'], ['inject']], withArg: ['--index-url', '-i', '--pip-args', '--suffix', '--python', '--spec'], specOptions: ['--spec'] },
  poetry: { ...pip, subcommands: [['add'], ['source', 'add']], withArg: ['-G', '--group', '-E', '--extras', '--source', '--python', '--platform'], sources: [] },
  npm,
  pnpm: npm,
  yarn: npm,
  bun: npm,
  gem: { subcommands: [['install'], ['i'], ['update']], withArg: ['-s', '--source', '-v', '--version', '-i', '--install-dir', '-n', '--bindir', '--platform', '-g', '--file'], sources: ['-s', '--source'], specOptions: [], githubShorthand: false },
  cargo: { subcommands: [['install']], withArg: ['--git', '--branch', '--tag', '--rev', '--path', '--root', '--index', '--registry', '--version', '--bin', '--example', '--features', '-F', '--target', '--profile', '-j', '--jobs', '--config', '-Z'], sources: ['--git', '--index'], specOptions: [], githubShorthand: false },
};
