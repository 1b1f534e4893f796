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

/** Cmdlets that erase a disk or a volume, or the shadow copies a restore needs. */
export const WIN_DISK_ERASERS = ['format-volume', 'clear-disk', 'initialize-disk', 'remove-partition', 'reset-physicaldisk', 'diskpart', 'remove-virtualdisk'];
export const WIN_BACKUP_ERASERS = /^(?:vssadmin\s+delete\s+shadows|wmic\s+shadowcopy\s+delete|wbadmin\s+delete\s+(?:catalog|systemstatebackup|backup)|bcdedit\s+\/delete)/i;
export const WIN_POWER = ['stop-computer', 'restart-computer'];

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

/** Folders of Windows itself, relative to a drive root (lower case). */
export const WIN_SYSTEM_DIRS = ['windows', 'windows\\system32', 'windows\\syswow64', 'program files', 'program files (x86)', 'programdata', 'users', 'boot', 'recovery', 'system volume information', '$recycle.bin'];
/** Spellings of the user's home folder. */
export const WIN_HOME = ['~', '$home', '${home}', '$env:userprofile', '${env:userprofile}', '%userprofile%', '$env:homepath', '%homepath%', '$env:homedrive$env:homepath', '%homedrive%%homepath%', '$env:home', '%home%'];
/** Environment spellings of system folders. */
export const WIN_SYSTEM_VARS = ['$env:systemroot', '$env:windir', '%systemroot%', '%windir%', '$env:programfiles', '%programfiles%', '$env:programdata', '%programdata%', '${env:programfiles(x86)}', '%programfiles(x86)%', '$env:systemdrive', '%systemdrive%', '$env:public', '%public%', '$env:allusersprofile', '%allusersprofile%'];
/** Environment spellings of folders in the user's profile (a recursive delete of one loses the user's data). */
export const WIN_PROFILE_VARS = ['$env:appdata', '%appdata%', '$env:localappdata', '%localappdata%', '$env:onedrive', '%onedrive%'];
/** Top folders of a user profile whose loss is the user's data. */
export const WIN_PROFILE_FOLDERS = ['documents', 'desktop', 'downloads', 'pictures', 'music', 'videos', 'appdata', 'onedrive', 'source', 'repos', 'favorites', 'contacts', '.ssh'];
