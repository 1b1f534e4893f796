// The user's home folder read from the account database rather than $HOME:
// perl's (getpwuid($<))[7], Python's pwd.getpwuid(os.getuid()).pw_dir, Ruby's
// Etc.getpwuid.dir, Node's os.userInfo().homedir. Per language, the
// spellings (bounded patterns, no nested quantifiers) and the expression the
// interpreter analysis already reads as the home folder, which replaces them
// before the code is tokenized. Data only.
import type { Language } from './programs';

export const HOME_SPELLINGS: Partial<Record<Language, { spellings: RegExp[]; home: string }>> = {
  perl: {
    spellings: [
      /\(\s*getpwuid\s*\(?\s*\$(?:<|>|UID|EUID|REAL_USER_ID|EFFECTIVE_USER_ID)\s*\)?\s*\)\s*\[\s*7\s*\]/g,
      /\(\s*getpwnam\s*\(?\s*(?:getlogin(?:\s*\(\s*\))?|\$ENV\{\s*['"]?(?:USER|LOGNAME)['"]?\s*\})\s*\)?\s*\)\s*\[\s*7\s*\]/g,
      /\bFile::HomeDir->my_home\b(?:\s*\(\s*\))?/g,
    ],
    home: '$ENV{HOME}',
  },
  python: {
    spellings: [/\bpwd\.getpw(?:uid\(\s*os\.(?:getuid|geteuid)\(\s*\)\s*\)|nam\(\s*(?:os\.getlogin\(\s*\)|getpass\.getuser\(\s*\))\s*\))\s*(?:\.pw_dir|\[\s*5\s*\])/g],
    home: 'os.path.expanduser("~")',
  },
  ruby: {
    spellings: [/\bEtc\.getpw(?:uid|nam\(\s*Etc\.getlogin\s*\))(?:\(\s*(?:Process\.(?:uid|euid))?\s*\))?\.dir\b/g],
    home: 'Dir.home',
  },
  node: {
    spellings: [/\b(?:os|require\(\s*['"](?:node:)?os['"]\s*\))\.userInfo\(\s*\)\.homedir\b/g],
    home: 'os.homedir()',
  },
};
