// Rules over one simple command (after quoting, wrappers and substitutions
// are resolved). Each family of danger is judged in its own module under
// families/, driven by the tables under tables/ (which also generate the
// family sections of docs/guard.md). A rule reports hits through the
// analyzer, which applies the policy's action for the rule id.
import type { Analyzer, AnalyzeOptions } from './analyze';
import { ARCHIVE_RULES } from './families/archives';
import { DELETE_RULES } from './families/delete';
import { DISK_RULES } from './families/disk';
import { DOWNLOAD_RULES } from './families/download';
import { FOREIGN_CODE_RULES } from './families/foreign-code';
import { GIT_RULES } from './families/git';
import { INSTALL_RULES } from './families/installs';
import { INTERPRETER_RULES } from './families/interpreters';
import { REMOTE_SHELL_RULES } from './families/remote-shell';
import { SECRET_RULES } from './families/secrets';
import { SYSTEM_RULES } from './families/system';
import { TAMPER_RULES } from './families/tamper';
import { TOOL_OPTION_RULES } from './families/tool-options';
import { WINDOWS_RULES } from './families/windows';
import type { Feed } from './feed';
import type { SimpleCommand, Word } from './lexer';

export interface RuleContext {
  analyzer: Analyzer;
  opts: AnalyzeOptions;
  cmd: SimpleCommand;
  words: Word[];
  argv: string[];
  name: string;
  segment: string;
  cwd: string;
  pipe: SimpleCommand[];
  depth: number;
  via: string;
  vars: Map<string, string>;
  /** What the command reads on stdin, as far as it is known before anything runs. */
  stdin?: Feed;
  /** A file written earlier on the line (by path as written), with what was written. */
  fileFeed?: (path: string) => Feed | undefined;
  /** What fetched the file or folder at `path` from the network earlier on the line (a download, a clone, an extracted download), if anything did. */
  fetchedBy?: (path: string) => string | undefined;
}

export type Rule = ((r: RuleContext) => void) & { names?: readonly string[] };

/** Every family's rules, in the order they run on each simple command. */
export const FAMILIES: Record<string, Rule[]> = {
  delete: DELETE_RULES,
  git: GIT_RULES,
  download: DOWNLOAD_RULES,
  installs: INSTALL_RULES,
  'remote-shell': REMOTE_SHELL_RULES,
  interpreters: INTERPRETER_RULES,
  'foreign-code': FOREIGN_CODE_RULES,
  secrets: SECRET_RULES,
  tamper: TAMPER_RULES,
  disk: DISK_RULES,
  system: SYSTEM_RULES,
  windows: WINDOWS_RULES,
  'tool-options': TOOL_OPTION_RULES,
  archives: ARCHIVE_RULES,
};

const ALL: Rule[] = Object.values(FAMILIES).flat();
const GENERIC = ALL.filter((r) => !r.names);
const BY_NAME = new Map<string, Rule[]>();
for (const rule of ALL) for (const n of rule.names ?? []) BY_NAME.set(n, [...(BY_NAME.get(n) ?? []), rule]);

/** Every family's rules for one simple command: the rules that name their programs run only for those. */
const dispatch: Rule = (r) => {
  for (const rule of GENERIC) rule(r);
  const named = BY_NAME.get(r.name);
  if (named) for (const rule of named) rule(r);
};

export const RULES: Rule[] = [dispatch];

export { checkWindowsLine, WINDOWS_HINT } from './families/windows';
export { hasShortFlag, operands } from './families/args';
