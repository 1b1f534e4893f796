// PowerShell and cmd.exe: the commands and parameters the Windows family
// reads, the folders it protects, the spellings of the user's home.
// PowerShell accepts any unambiguous prefix of a parameter name (-Rec,
// -Fo), so parameters are listed in full and matched by prefix.

/** Cmdlets and their aliases that delete (PowerShell: Remove-Item; cmd.exe: rd, rmdir, del, erase). */
export const WIN_DELETE = ['remove-item', 'ri', 'rm', 'rmdir', 'rd', 'del', 'erase', 'remove-itemproperty'];
/** Remove-Item's parameters (with the common ones), for prefix matching. */
export const REMOVE_ITEM_PARAMS = ['-path', '-literalpath', '-filter', '-include', '-exclude', '-recurse', '-force', '-credential', '-whatif', '-confirm', '-stream', '-verbose', '-debug', '-erroraction', '-warningaction', '-informationaction', '-errorvariable', '-warningvariable', '-informationvariable', '-outvariable', '-outbuffer', '-pipelinevariable', '-progressaction'];
/** Parameters of Remove-Item that take a value. */
export const REMOVE_ITEM_WITH_VALUE = ['-path', '-literalpath', '-filter', '-include', '-exclude', '-credential', '-stream', '-erroraction', '-warningaction', '-informationaction', '-errorvariable', '-warningvariable', '-informationvariable', '-outvariable', '-outbuffer', '-pipelinevariable', '-progressaction'];

/** powershell.exe / pwsh parameters, for prefix matching (-c, -com, -enc, -e). */
export const POWERSHELL_PARAMS = ['-command', '-encodedcommand', '-file', '-noprofile', '-noninteractive', '-nologo', '-executionpolicy', '-windowstyle', '-inputformat', '-outputformat', '-noexit', '-sta', '-mta', '-version', '-psconsolefile', '-configurationname', '-workingdirectory', '-settingsfile', '-login', '-interactive', '-commandwithargs', '-custompipename', '-encodedarguments', '-help'];
export const POWERSHELL_WITH_VALUE = ['-executionpolicy', '-windowstyle', '-inputformat', '-outputformat', '-version', '-psconsolefile', '-configurationname', '-workingdirectory', '-settingsfile', '-custompipename', '-encodedarguments'];
/** Short aliases PowerShell documents beside the prefixes (`-e`, `-ec` for -EncodedCommand, `-c` for -Command). */
export const POWERSHELL_ALIASES: Record<string, string> = { '-c': '-command', '-e': '-encodedcommand', '-ec': '-encodedcommand', '-enc': '-encodedcommand', '-f': '-file', '-ep': '-executionpolicy', '-ex': '-executionpolicy', '-nop': '-noprofile', '-noni': '-noninteractive', '-w': '-windowstyle', '-wd': '-workingdirectory' };

/** Cmdlets that erase a disk, a volume or a partition. */
export const WIN_DISK_ERASERS = ['format-volume', 'clear-disk', 'initialize-disk', 'remove-partition', 'reset-physicaldisk', 'remove-virtualdisk', 'clear-partition', 'remove-physicaldisk'];
/** diskpart script verbs that erase a disk, a partition or a volume. */
export const DISKPART_ERASERS = /\b(?:clean|delete\s+(?:partition|volume|disk)|format|convert\s+(?:gpt|mbr|dynamic|basic))\b/i;

/** Cmdlets and aliases that read a file's content. */
export const WIN_READERS = ['get-content', 'gc', 'type', 'cat', 'more', 'select-string', 'sls', 'import-csv', 'format-hex', 'fhx', 'get-filehash'];
/** Cmdlets and aliases that write their -Path (or first operand). */
export const WIN_WRITERS = ['set-content', 'sc', 'add-content', 'ac', 'out-file', 'clear-content', 'clc', 'new-item', 'ni', 'set-itemproperty'];
/** Copy and move: the last operand (or -Destination) is written; Move-Item takes its source away. */
export const WIN_COPIERS = ['copy-item', 'cpi', 'copy', 'cp', 'move-item', 'mi', 'move', 'mv', 'xcopy', 'robocopy', 'compress-archive'];
/** Downloaders and runners of PowerShell: together on one line they are download-and-run. */
export const WIN_DOWNLOAD = /\b(?:irm|iwr|invoke-restmethod|invoke-webrequest|downloadstring|downloaddata|downloadfile|net\.webclient|start-bitstransfer|httpclient|getstringasync|curl(?:\.exe)?|wget(?:\.exe)?)\b/i;
export const WIN_RUN = /\b(?:iex|invoke-expression|invoke-command|icm)\b|scriptblock\]::create|\|\s*(?:powershell|pwsh)(?:\.exe)?\b/i;
/** Programs that run a URL directly. */
export const WIN_REMOTE_RUNNERS = /^(?:mshta(?:\.exe)?\s+(?:https?|vbscript|javascript):|regsvr32(?:\.exe)?\s+.*\/i:https?:|rundll32(?:\.exe)?\s+.*(?:javascript|https?):|msiexec(?:\.exe)?\s+.*\/i\s+https?:|certutil(?:\.exe)?\s+.*-urlcache)/i;

/** Folders of Windows itself, relative to a drive root (lower case); anything under `windows\` but `windows\temp` is one too. */
export const WIN_SYSTEM_DIRS = ['windows', 'windows\\system32', 'windows\\syswow64', 'program files', 'program files (x86)', 'programdata', 'users', 'users\\public', 'users\\default', 'boot', 'recovery', 'system volume information', '$recycle.bin', 'efi'];
/** Spellings of the user's home folder (besides the variables in WIN_ENV_FOLDERS). */
export const WIN_HOME = ['~', '$home', '${home}', '$env:userprofile', '${env:userprofile}', '%userprofile%', '%homedrive%%homepath%', '$env:homedrive$env:homepath', '[environment]::getfolderpath("userprofile")'];
/** Environment variables that name a folder on a standard install (`{user}` is the user's name); cmd %X%, PowerShell $env:X. */
export const WIN_ENV_FOLDERS: Record<string, string> = {
  userprofile: 'C:\\Users\\{user}', home: 'C:\\Users\\{user}', homedrive: 'C:', homepath: '\\Users\\{user}', username: '{user}',
  systemroot: 'C:\\Windows', windir: 'C:\\Windows', systemdrive: 'C:', programfiles: 'C:\\Program Files', 'programfiles(x86)': 'C:\\Program Files (x86)', programw6432: 'C:\\Program Files',
  commonprogramfiles: 'C:\\Program Files\\Common Files', programdata: 'C:\\ProgramData', allusersprofile: 'C:\\ProgramData', public: 'C:\\Users\\Public',
  appdata: 'C:\\Users\\{user}\\AppData\\Roaming', localappdata: 'C:\\Users\\{user}\\AppData\\Local', temp: 'C:\\Users\\{user}\\AppData\\Local\\Temp', tmp: 'C:\\Users\\{user}\\AppData\\Local\\Temp',
  onedrive: 'C:\\Users\\{user}\\OneDrive', onedriveconsumer: 'C:\\Users\\{user}\\OneDrive', onedrivecommercial: 'C:\\Users\\{user}\\OneDrive', userdomain_roamingprofile: 'C:\\Users\\{user}',
};
/** [Environment]::GetFolderPath / [Environment+SpecialFolder] names: the variable of WIN_ENV_FOLDERS they equal, `|sub` for a folder below it. */
export const WIN_FOLDER_IDS: Record<string, string> = {
  userprofile: 'userprofile', personal: 'userprofile|Documents', mydocuments: 'userprofile|Documents', desktop: 'userprofile|Desktop', desktopdirectory: 'userprofile|Desktop',
  mypictures: 'userprofile|Pictures', mymusic: 'userprofile|Music', myvideos: 'userprofile|Videos', favorites: 'userprofile|Favorites', applicationdata: 'appdata', localapplicationdata: 'localappdata',
  windows: 'systemroot', system: 'systemroot|System32', systemx86: 'systemroot|SysWOW64', programfiles: 'programfiles', programfilesx86: 'programfiles(x86)', commonapplicationdata: 'programdata',
  startup: 'appdata|Microsoft\\Windows\\Start Menu\\Programs\\Startup', startmenu: 'appdata|Microsoft\\Windows\\Start Menu', templates: 'appdata|Microsoft\\Windows\\Templates',
};
/** Top folders of a user profile whose loss is the user's data. */
export const WIN_PROFILE_FOLDERS = ['documents', 'desktop', 'downloads', 'pictures', 'music', 'videos', 'appdata', 'onedrive', 'source', 'repos', 'favorites', 'contacts', '.ssh'];

/** Registry hives of the whole machine: deleting a key there changes Windows for every user. */
export const WIN_REG_MACHINE_HIVES = ['hklm', 'hkcr', 'hku', 'hkcc'];
/** Keys under HKCU\Software (and HKCU itself) shared by every program: deleting one is a whole branch of the user's settings. */
export const WIN_REG_SHARED_KEYS = ['microsoft', 'classes', 'policies', 'wow6432node', 'clients', 'registeredapplications'];

/** cmd.exe switches before /c or /k (`/d /s /q /a /u`, `/t:fg`, `/e:on`, `/f:off`, `/v:on`). */
export const CMD_SWITCHES = /^\/(?:[dsqau]|[tefv]:\w*|[tefv])$/i;

/** Cmdlets and aliases that start a process without waiting (a fork bomb in an endless loop). */
export const WIN_SPAWNERS = ['start-process', 'saps', 'start', 'start-job', 'sajb', 'start-threadjob', 'invoke-item', 'ii'];
/** Cmdlets and aliases that run a string as PowerShell code. */
export const WIN_CODE_RUNNERS = ['invoke-expression', 'iex'];
/** Cmdlets and aliases that list a folder's items (what a ForEach-Object loop then gets). */
export const WIN_LISTERS = ['get-childitem', 'gci', 'dir', 'ls', 'get-item', 'gi'];
/** Cmdlets and aliases that run their script block for each item on the pipeline. */
export const WIN_FOREACH = ['foreach-object', '%', 'foreach'];
/** Cmdlets a wildcard command name (`& (gcm Remove-It*)`) can resolve to that the family judges. */
export const WIN_DANGEROUS_CMDLETS = ['Remove-Item', 'Remove-ItemProperty', 'Clear-Content', 'Clear-Item', 'Stop-Process', 'Stop-Computer', 'Restart-Computer', 'Format-Volume', 'Clear-Disk', 'Initialize-Disk', 'Remove-Partition', 'Invoke-Expression', 'Invoke-WebRequest', 'Invoke-RestMethod', 'Set-MpPreference', 'Add-MpPreference', 'Start-Process', 'Set-Content', 'Move-Item', 'Copy-Item'];
/** Expressions that stand for their path argument (`(Resolve-Path ~)`, `(Get-Item X).FullName`). */
export const WIN_PATH_IDENTITY = ['resolve-path', 'rvpa', 'convert-path', 'cvpa', 'get-item', 'gi', 'get-location', 'gl', 'pwd'];
/** Uploaders: a file parameter sends that file, a body parameter sends that text. */
export const WIN_UPLOADERS: Record<string, { files: string[]; bodies: string[] }> = {
  'invoke-webrequest': { files: ['-infile'], bodies: ['-body', '-form'] },
  iwr: { files: ['-infile'], bodies: ['-body', '-form'] },
  'invoke-restmethod': { files: ['-infile'], bodies: ['-body', '-form'] },
  irm: { files: ['-infile'], bodies: ['-body', '-form'] },
  'send-mailmessage': { files: ['-attachments'], bodies: ['-body'] },
  'start-bitstransfer': { files: ['-source'], bodies: [] },
};
/** Expressions that dump the whole environment (sent anywhere it is exfiltration). */
export const WIN_ENV_DUMP = /(?:\b(?:gci|get-childitem|dir|ls|gi|get-item)\s+(?:-path\s+)?env:(?:\\?\*)?(?=[\s)|]|$)|\[(?:system\.)?environment\]::getenvironmentvariables|\bset\s*(?:\||$)|\$env:\w*(?:token|secret|passw|key|cred)\w*)/i;

/**
 * Windows programs and cmdlets judged by what their arguments say (lower-case text of the
 * statement after the name): the first pattern that matches decides.
 */
export interface WinToolRule {
  names: readonly string[];
  when: RegExp;
  rule: string;
  decision: 'deny' | 'ask';
  why: string;
}
export const WIN_TOOL_RULES: readonly WinToolRule[] = [
  { names: ['wsl', 'wsl.exe'], when: /(?:^|\s)--unregister\b/, rule: 'disk-destroy', decision: 'deny', why: 'wsl --unregister deletes a Linux distribution and every file in it' },
  { names: ['format', 'format.com'], when: /^[a-z]:/, rule: 'disk-destroy', decision: 'deny', why: 'format erases the volume' },
  { names: ['vssadmin'], when: /\b(?:delete\s+shadows|resize\s+shadowstorage)\b/, rule: 'disk-destroy', decision: 'deny', why: 'deletes the shadow copies a restore needs' },
  { names: ['wmic'], when: /\bshadowcopy\b.*\bdelete\b/, rule: 'disk-destroy', decision: 'deny', why: 'deletes the shadow copies a restore needs' },
  { names: ['wbadmin'], when: /\bdelete\s+(?:catalog|systemstatebackup|backup)\b/, rule: 'disk-destroy', decision: 'deny', why: 'deletes the backups a restore needs' },
  { names: ['bcdedit'], when: /\/delete\b|\brecoveryenabled\s+(?:no|off|0)\b|\bbootstatuspolicy\s+ignoreallfailures\b/, rule: 'windows-system-change', decision: 'deny', why: 'changes the boot configuration so Windows cannot recover' },
  { names: ['fsutil'], when: /\busn\s+deletejournal\b|\bsetzerodata\b/, rule: 'windows-system-change', decision: 'deny', why: 'erases file system data' },
  { names: ['cipher'], when: /\/w\b/, rule: 'disk-destroy', decision: 'deny', why: 'cipher /w overwrites the free space of a volume' },
  { names: ['wevtutil'], when: /^(?:cl|clear-log)\b/, rule: 'destroy-history', decision: 'deny', why: 'clears a Windows event log' },
  { names: ['clear-eventlog', 'remove-eventlog', 'limit-eventlog'], when: /(?:)/, rule: 'destroy-history', decision: 'deny', why: 'clears or removes a Windows event log' },
  { names: ['disable-computerrestore'], when: /(?:)/, rule: 'disk-destroy', decision: 'deny', why: 'turns off System Restore' },
  { names: ['shutdown'], when: /(?:^|\s)[/-][srpgh](?:\s|$)/, rule: 'shutdown', decision: 'ask', why: 'shuts down or restarts the machine' },
  { names: ['shutdown'], when: /(?:^|\s)[/-]l(?:\s|$)/, rule: 'shutdown', decision: 'ask', why: 'logs the user off' },
  { names: ['stop-computer', 'restart-computer'], when: /(?:)/, rule: 'shutdown', decision: 'ask', why: 'stops or restarts the machine' },
  { names: ['set-mppreference', 'add-mppreference'], when: /-disable\w*(?::\s*|\s+)(?:\$true|1)\b|-exclusion(?:path|process|extension)\b|-(?:mapsreporting|submitsamplesconsent|puaprotection)\s+(?:0|disabled?|\$false)/, rule: 'security-service-off', decision: 'deny', why: 'switches off or blinds Microsoft Defender' },
  { names: ['set-netfirewallprofile'], when: /-enabled?(?::\s*|\s+)(?:\$?false|0)\b/, rule: 'firewall-off', decision: 'deny', why: 'switches the Windows firewall off' },
  { names: ['netsh'], when: /\b(?:advfirewall\s+set\s+\w+\s+state\s+off|firewall\s+set\s+opmode\s+(?:mode=)?disable)\b/, rule: 'firewall-off', decision: 'deny', why: 'switches the Windows firewall off' },
  { names: ['netsh'], when: /\binterface\s+set\s+interface\b.*\bdisabled?\b/, rule: 'network-down', decision: 'deny', why: 'disables a network interface' },
  { names: ['disable-netadapter'], when: /(?:)/, rule: 'network-down', decision: 'deny', why: 'disables a network adapter' },
  { names: ['net', 'net1'], when: /^user\s+\S+.*\/del(?:ete)?\b/, rule: 'user-accounts', decision: 'deny', why: 'deletes a user account' },
  { names: ['net', 'net1'], when: /^localgroup\s+(?:"?administrators"?|"?remote desktop users"?)\s+\S+.*\/add\b/, rule: 'privilege-grant', decision: 'deny', why: 'adds an account to an administrators group' },
  { names: ['net', 'net1'], when: /^stop\s+"?(?:windefend|mpssvc|wscsvc|sense|eventlog|wuauserv|bfe)\b/, rule: 'security-service-off', decision: 'deny', why: 'stops a Windows security service' },
  { names: ['sc', 'sc.exe'], when: /^(?:stop|delete|config)\s+"?(?:windefend|mpssvc|wscsvc|sense|eventlog|wuauserv|bfe|wdnissvc)\b/, rule: 'security-service-off', decision: 'deny', why: 'stops or disables a Windows security service' },
  { names: ['stop-service', 'spsv', 'set-service'], when: /\b(?:windefend|mpssvc|wscsvc|sense|eventlog|bfe|wdnissvc)\b/, rule: 'security-service-off', decision: 'deny', why: 'stops or disables a Windows security service' },
  { names: ['remove-localuser', 'disable-localuser'], when: /(?:)/, rule: 'user-accounts', decision: 'deny', why: 'deletes or disables a local account' },
  { names: ['add-localgroupmember'], when: /administrators|remote desktop users/, rule: 'privilege-grant', decision: 'deny', why: 'adds an account to an administrators group' },
  { names: ['setx', 'setx.exe'], when: /^"?node_options"?\s+(?:.*[\s"])?(?:--(?:require|import|loader|experimental-loader)\b|-r\s)/, rule: 'modify-loom', decision: 'deny', why: "sets NODE_OPTIONS for every later process: the code it names loads into every Node program, loom's hooks among them" },
  { names: ['setx', 'setx.exe'], when: /^"?(?:node_options|ld_preload|pythonstartup|pythonpath|perl5opt|perl5lib|rubyopt|java_tool_options|_java_options|jdk_java_options|bash_env|env|path|pathext|comspec|psmodulepath)"?\s/, rule: 'persistence', decision: 'ask', why: 'changes, for every later process, a variable that decides which code runs' },
  { names: ['set-itemproperty', 'sp', 'new-itemproperty'], when: /\\currentversion\\(?:run|runonce|policies\\explorer\\run)\b|\\winlogon\b/, rule: 'persistence', decision: 'ask', why: 'adds a program that runs at every logon (a Run key)' },
  { names: ['schtasks'], when: /\/create\b/, rule: 'persistence', decision: 'ask', why: 'creates a scheduled task' },
  { names: ['register-scheduledtask', 'new-service'], when: /(?:)/, rule: 'persistence', decision: 'ask', why: 'registers a task or a service that runs later' },
  { names: ['reg'], when: /^add\s+\S*\\currentversion\\(?:run|runonce|policies\\explorer\\run)\b|^add\s+\S*\\winlogon\b/, rule: 'persistence', decision: 'ask', why: 'adds a program that runs at every logon' },
  { names: ['reg'], when: /^add\s+\S*\\windows defender\b|^add\s+\S*disableantispyware\b/, rule: 'security-service-off', decision: 'deny', why: 'switches Microsoft Defender off through the registry' },
];

/** Commands that, with no operand, give the current folder (`(Get-Location)`, `(gl)`, `(pwd)`, `Get-Location | Remove-Item`). */
export const WIN_CWD_COMMANDS = ['get-location', 'gl', 'pwd'];
/**
 * Automatic variables that name the current folder: $PWD, and $PSScriptRoot, the folder of the
 * script running (empty under -Command; a script run here is taken to live in the current folder).
 */
export const WIN_CWD_VARS = ['pwd', 'psscriptroot'];

/** Cmdlets that define an alias: `Set-Alias [-Name] X [-Value] Y`. */
export const WIN_ALIAS_SETTERS = ['set-alias', 'sal', 'new-alias', 'nal'];
/** Cmdlets that set an item of the alias: or function: drive (`Set-Item alias:x Remove-Item`, `New-Item function:x -Value {...}`). */
export const WIN_ITEM_SETTERS = ['set-item', 'si', 'new-item', 'ni'];
/** Keywords that define a function: `function x { ... }`, `function x($p) { ... }`, `filter x { ... }`. */
export const WIN_FUNCTION_KEYWORDS = ['function', 'filter', 'workflow'];
