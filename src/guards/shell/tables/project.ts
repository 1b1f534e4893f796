// The project's own work, as far as names say it: the top-level folders that
// hold its source and tests, its manifests, and the extensions of source
// files. Deleting one of these folders whole, or emptying one of these
// files (a manifest or a source file), loses work git may not have yet (ask); build outputs and logs are
// not in the tables and stay everyday work.
// Tables only; families/project-work.ts reads them, docs/guard.md lists them.

/** Top-level folders of a project that hold its source or its tests (build outputs such as lib/, dist/ are not here). */
export const PROJECT_SOURCE_DIRS = ['src', 'app', 'apps', 'packages', 'pkg', 'cmd', 'internal', 'include', 'crates', 'test', 'tests', 'spec', 'server', 'client', 'components', 'services'];

/** Files at the top of a project that describe it: emptied, the project no longer builds as it did. */
export const PROJECT_MANIFESTS = ['package.json', 'Cargo.toml', 'go.mod', 'pyproject.toml', 'setup.py', 'setup.cfg', 'Gemfile', 'pom.xml', 'build.gradle', 'build.gradle.kts', 'settings.gradle', 'composer.json', 'mix.exs', 'CMakeLists.txt', 'Makefile', 'meson.build', 'deno.json', 'tsconfig.json', 'README', 'LICENSE', 'Dockerfile'];

/** Extensions of source files: one emptied or shredded in the project is work lost. */
export const SOURCE_EXTENSIONS = ['ts', 'tsx', 'mts', 'cts', 'js', 'jsx', 'mjs', 'cjs', 'vue', 'svelte', 'py', 'pyi', 'go', 'rs', 'java', 'kt', 'kts', 'scala', 'c', 'h', 'cc', 'cpp', 'cxx', 'hpp', 'hh', 'cs', 'fs', 'rb', 'php', 'swift', 'm', 'mm', 'dart', 'ex', 'exs', 'erl', 'hs', 'ml', 'clj', 'lua', 'pl', 'pm', 'r', 'jl', 'zig', 'nim', 'sql', 'proto', 'graphql', 'sh', 'bash', 'zsh', 'ps1', 'tf', 'md', 'rst', 'css', 'scss', 'html'];

/** Files that are empty by convention: writing them empty is how they are made. */
export const EMPTY_BY_CONVENTION = ['__init__.py', '__init__.pyi', 'py.typed', '.gitkeep', '.keep', '.nojekyll', '.npmignore', 'conftest.py'];

/** Folders inside a project whose files are outputs, not work (their files may be emptied or deleted freely). */
export const PROJECT_OUTPUT_DIRS = ['node_modules', 'dist', 'build', 'out', 'target', 'coverage', '.next', '.nuxt', '.cache', '.turbo', '.venv', 'venv', '__pycache__', '.pytest_cache', '.mypy_cache', 'tmp', 'log', 'logs', 'vendor', '.terraform'];
