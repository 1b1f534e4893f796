// Secret redaction, applied before anything is persisted or printed. The
// detectors are tables under ./redaction/ (token shapes, secret options per
// program, secret headers, sensitive names); each marks spans of the
// original text, overlapping spans are merged and replaced once. Every
// pattern is linear-time (bounded repetition, no quantified group holding a
// quantifier) and every hand scan advances monotonically.
import { findArgvListSecrets } from './redaction/argv-lists';
import { findWordDiffSecrets } from './redaction/word-diff';
import { findFormDataSecrets } from './redaction/form-data';
import { findHexDumpSecrets } from './redaction/hex-dumps';
import { extendToPhrases, findLabelledPhrases, wrappedRests } from './redaction/passphrase-lines';
import { setOwn } from '../util/own';
import { findCliSecrets } from './redaction/cli-flags';
import { findFormatSecrets } from './redaction/formats';
import { findHeaders } from './redaction/headers';
import { isBasicCredential, isNotSecretName, isPublishedExample, isPlaceholder, isPublicKey, isProgramMessage, isSensitiveAssignment, isSensitiveName, maybeNotSecretName, maybeSensitiveName, TEST_RESULT, isKnownNotSecret, isRailsEncryptedFile, isSealedCiphertext, textHas } from './redaction/names';
import { findLineSecrets, findNameValuePairs, findRepeatedSecrets, findUrlCredentials } from './redaction/structured';
import { lineEnd, OPENS_PLACEHOLDER, type Span, valueEnd, valueStart, type ValueOptions } from './redaction/text';
import { findKeyBodies } from './redaction/key-bodies';
import { findReplEchoes } from './redaction/repl-output';
import { scanLines } from './redaction/anchored';
import { TOKEN_SHAPES, type TokenShape } from './redaction/token-shapes';
import { normalizedView } from './redaction/views';
import { scan, work } from './redaction/work';
import { findSeedPhrases } from './redaction/seed-phrases';
import { findWifKeys } from './redaction/wif-keys';
import { findKeypairArrays } from './redaction/keypair-arrays';
import { findWalletHexKeys } from './redaction/wallet-hex-keys';
import { findLicenseBlocks } from './redaction/license-blocks';
import { findProductKeys } from './redaction/product-keys';
import { findLicenseKeys } from './redaction/license-keys';
import { findGemCredentials } from './redaction/gem-credentials';
import { findPromptedSecrets } from './redaction/prompted-secrets';
import { findAskpassSecrets } from './redaction/askpass-scripts';
import { findOnePasswordFields } from './redaction/onepassword-fields';
import { findCurlCookies } from './redaction/curl-cookies';
import { findArrowPairs } from './redaction/arrow-pairs';
import { findWrappedValues } from './redaction/wrapped-values';
import { findNextLineValues } from './redaction/next-line-values';
import { findParameterPaths } from './redaction/parameter-paths';
import { findPairedLiterals } from './redaction/paired-literals';
import { findNamedSecretFlags } from './redaction/named-secret-flags';
import { findServerDirectives } from './redaction/server-directives';
import { findProvisioningSecrets } from './redaction/provisioning';
import { findLiteralConversions } from './redaction/literal-conversions';
import { findCLiterals } from './redaction/c-literals';
import { findEncodedPrintedSecrets } from './redaction/printed-secrets';
import { findBuildConfigFields } from './redaction/build-config-fields';
import { findDebuggerEchoes } from './redaction/debugger-output';
import { findProtocolLogSecrets } from './redaction/protocol-logs';
import { findIniSectionSecrets } from './redaction/ini-sections';
import { findNameValueReports } from './redaction/name-value-reports';
import { findHtmlSecrets } from './redaction/html-secrets';
import { findTemplateDefaults } from './redaction/template-defaults';
import { findKvTables } from './redaction/kv-tables';
import { findSpacedUrlPasswords } from './redaction/url-spaced-passwords';
import { findBackupCodes } from './redaction/backup-codes';
import { findDotLeaders } from './redaction/dot-leaders';
import { findDecoderLiterals } from './redaction/decoder-literals';
import { findSplitLiterals } from './redaction/split-literals';
import { findCodeFallbacks } from './redaction/code-fallbacks';
import { greppedView } from './redaction/grep-view';
import { findAlignedTables } from './redaction/aligned-tables';
import { findShellSets } from './redaction/shell-set';
import { findEnvDumpValues } from './redaction/env-lines';

/** Longer texts are not read again without their search prefixes (a megabyte of grep output is one pass). */
const GREP_VIEW_MAX = 1 << 20;

export { isSensitiveName, isPlaceholder };

export interface RedactionResult<T> {
  value: T;
  count: number;
}

const COUNTS = new Int32Array(128);

/** Shannon entropy per character of an ASCII key (looksRandomSecret has checked the alphabet). */
function entropy(s: string): number {
  COUNTS.fill(0);
  for (let i = 0; i < s.length; i++) COUNTS[s.charCodeAt(i) & 127]++;
  let h = 0;
  for (let c = 0; c < 128; c++) {
    const n = COUNTS[c];
    if (n === 0) continue;
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

// Patterns of the value checks, as module constants: a regex literal in a function is a new RegExp
// object per call, and these run once per candidate value (tens of thousands per MB of output).
const KEY_ALPHABET = /^[A-Za-z0-9+/=_.~-]+$/;
const HEX = /^[0-9a-f]+$/i;
const HEX_KEY = /^[0-9a-f]{32,128}$/i;
const NUMBERED_KEY = /^(?:key|Key|KEY)\d?$|^(?:primary|secondary)_?[Kk]ey$/;
const PAIR_NAME = /["']?(?:name|Name|key|Key|property)["']?[ \t]{0,3}[:=][ \t]{0,3}["']([\w.:-]{1,64})["'][ \t]{0,3},?[ \t]{0,3}["']?$/;
const ID_NAME = /(?:^|[-_.])(?:id|etag|trace|request|cf-id|nonce)$/i;
const DIGEST_PATH = /(?:checksum|hash|digest|sha\d{0,3}|md5)\/$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const URL_OR_PATH = /^(?:data:|https?:|file:|\.{0,2}\/)/;
const DIGEST_PREFIX = /^(?:sha(?:1|224|256|384|512)|md5|blake2b?)[-:]/i;
const STRIPE_PUBLISHABLE = /^pk_(?:live|test)_/;
const TYPED_ID = /^[a-z]{2,12}_[A-Za-z0-9]{8,64}$/;
const SECRET_ID_PREFIX = /^(?:sk|rk|whsec|sec|secret|key|token|tok|pat|api|auth|pass|pwd|priv|private)_/;
const LOWER = /[a-z]/;
const UPPER = /[A-Z]/;
const DIGIT = /[0-9]/;
const WORD_RUN = /[A-Z]?[a-z]{4,}/g; // with match only, which resets lastIndex

/** A value that looks like a random key: long, mixed classes, high entropy, and not a hash, UUID, path or URL. */
export function looksRandomSecret(v: string): boolean {
  if (v.length < 24 || v.length > 512) return false;
  // A key is drawn from a key alphabet: a value with brackets, colons or $ is a path or an expression ($.a[0].b: in a message).
  if (!KEY_ALPHABET.test(v)) return false;
  if (HEX.test(v)) return false; // hex: commit hashes, digests
  if (UUID.test(v)) return false;
  if (v.includes('/') && !BASE64.test(v)) return false;
  if (URL_OR_PATH.test(v)) return false;
  if (DIGEST_PREFIX.test(v)) return false; // integrity and image digests
  if (STRIPE_PUBLISHABLE.test(v)) return false; // Stripe publishable keys: public by design
  // An object's id typed by its prefix (Stripe's price_…, cus_…, pi_…): an id, unless the prefix says secret (sk_, whsec_).
  if (TYPED_ID.test(v) && !SECRET_ID_PREFIX.test(v)) return false;
  if (!LOWER.test(v) || !UPPER.test(v) || !DIGIT.test(v)) return false;
  return entropy(v) >= 4.0;
}

/** Start of the word that ends right before text[at] (a blank): `public` in `public key:`. */
function previousWord(text: string, at: number): number {
  let i = at;
  while (i > 0 && at - i < 32 && NAME_CHAR[text.charCodeAt(i - 1)] !== 0) i--;
  return i;
}

/** End of the run of non-blank characters from `from` (at most 256). */
function wordEnd(text: string, from: number): number {
  let i = from;
  while (i < text.length && i - from < 256 && text.charCodeAt(i) > 32) i++;
  return i;
}

// Base64 of a known binary format (PNG, gzip, JPEG, GIF, PDF, zip): data, not a key.
const BINARY_MAGIC = /^(?:iVBORw0KGg|H4sI|\/9j\/|R0lGOD|JVBERi0|UEsDB)/;
const BASE64_DATA = /^[A-Za-z0-9+/_-]+={0,2}$/;
// Settings text (`max_connections=100` and a line end) is words and structure too.
const TEXT_STRUCTURE = /[ {":,=\n]/;

/** A base64 blob on its own (a word of its line) long enough to hold settings. */
const BLOB = /(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/]{40,8192}={0,2}(?![A-Za-z0-9+/=_-])/g;
const MAX_BLOBS = 16;
/** Set while the detectors read a decoded value: decoding goes one level deep. */
let decoding = false;

/**
 * What the detectors find in base64 of text (JSON, settings, prose: printable, with spaces or structure), or
 * undefined when the value decodes to no such text (a key, random bytes). The detectors only, no views: their
 * scratch buffers belong to the call that is decoding this value.
 */
function decodedTextSpans(v: string): Span[] | undefined {
  const decoded = Buffer.from(v, 'base64').toString('latin1');
  work.reads += v.length;
  let printable = 0;
  for (let i = 0; i < decoded.length; i++) {
    const c = decoded.charCodeAt(i);
    if ((c >= 32 && c < 127) || c === 10 || c === 9 || c === 13) printable++;
  }
  if (decoded.length < 12 || printable < decoded.length * 0.97 || !TEXT_STRUCTURE.test(decoded)) return undefined;
  const inside: Span[] = [];
  decoding = true;
  try {
    detect(decoded, inside);
  } finally {
    decoding = false;
  }
  return inside;
}

/**
 * Base64 of text that holds a secret (`echo $APP_ENV_B64` printing an encoded .env, a config blob in a log):
 * the whole blob goes when the detectors find one in the decoded text.
 */
function findEncodedSecrets(text: string, spans: Span[]): void {
  if (text.length < 40) return;
  BLOB.lastIndex = 0;
  let m: RegExpExecArray | null;
  let n = 0;
  while (n < MAX_BLOBS && (m = scan(BLOB, text))) {
    const v = m[0];
    // Mixed case and a digit, as encoded text is; a run of one class is a word or a number.
    if (!/[a-z]/.test(v) || !/[A-Z]/.test(v) || !/[0-9]/.test(v)) continue;
    n++;
    if (decodedTextSpans(v)?.length) spans.push({ start: m.index, end: m.index + v.length, rule: 'encoded-secret' });
  }
}

/**
 * Base64 data rather than a key: a known binary format, or text (JSON, prose) that holds no secret
 * itself (a ConfigMap's settings.json, a pub/sub message). Base64 of JSON with a password in it stays a secret.
 */
function encodesPlainData(v: string): boolean {
  if (BINARY_MAGIC.test(v)) return true;
  if (!BASE64_DATA.test(v) || v.length < 24) return false;
  return decodedTextSpans(v)?.length === 0;
}

/** Three or more word-like runs: an identifier (handleUserCallback2), not a key. */
/** Words joined by `-`/`_`/`.` ending in a lower-case hex digest: a cache key, an artifact or image tag (Linux-node-<sha256>). */
const WORDS_THEN_DIGEST = /^(?:[A-Za-z][A-Za-z0-9.]{0,30}[-_.]){1,6}[0-9a-f]{16,128}$/;

function looksLikeIdentifier(v: string): boolean {
  return (v.match(WORD_RUN) ?? []).length >= 3 || WORDS_THEN_DIGEST.test(v);
}

// NAME=value, NAME: value, "name": "value", name='value'. A hand scan finds each separator (`:`, `=`,
// `:=`) and reads the name backwards from it; the value is read by hand: quoted to its closing quote,
// else to whitespace (a YAML line to its end). It finds exactly what this pattern would, in the same
// order (the names are maximal runs, so a separator has at most one name):
//   (?<![A-Za-z0-9_.-])(["']?)([A-Za-z_][A-Za-z0-9_.-]{0,63})\1([ \t]{0,3}(?::=|[:=])[ \t]{0,3})
// without a match array and three substrings per separator (`x=x=x=…` has half a million of them per MB).
const HEADER_NAMES = /^(?:proxy-)?authorization$|^cookie$|^set-cookie$/i;
/** The lengths of those names: a name of another length skips the regex. */
const isHeaderNameLength = (n: number) => n === 6 || n === 10 || n === 13 || n === 19;

/** 1: a name character [A-Za-z0-9_.-]; 2: one that may start a name [A-Za-z_]. */
const NAME_CHAR = new Uint8Array(65536);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z_]/.test(ch)) NAME_CHAR[c] = 2;
  else if (/[0-9.-]/.test(ch)) NAME_CHAR[c] = 1;
}
const MAX_NAME = 64;
const STRING_PREFIX = new Set([...'bBrRuUfFnNeE'].map((c) => c.charCodeAt(0)));
const SENTENCE_END = /[.!?:]$/;

const STOP_SETS = ['&#"\'', ',}]"\'', '"\'`<>'];
/**
 * valueEnd's options for each way a value is read, indexed by `key` in findAssignments (stop set,
 * enclosing quote, YAML line): built once, where a literal per name was an object per separator.
 */
const READ_OPTS: ValueOptions[] = [];
for (const stops of STOP_SETS) for (const enclosing of [undefined, '"', "'"]) for (const toLineEnd of [false, true]) READ_OPTS.push({ enclosing, stops, toLineEnd });

const PHRASE_NAME = /(?:pass|seed|recovery)[ _-]?phrase$|mnemonic$/i;
const LOWER_WORD = /^[a-z]{2,20}$/;
/** Two more words on the line (of letters or numbers), as a sentence has. */
const SENTENCE_GOES_ON = /^[ \t]{1,3}[\w'-]{1,30}[ \t]{1,3}[A-Za-z][\w'-]{0,30}/;
/** A sentence about the passphrase, not one (`New passphrase: must be at least 12 characters`). */
const RULE_WORDS = /^[ \t]{0,3}(?:must|should|needs?|is|are|was|were|cannot|can|will|at|minimum|required|optional|not|none|empty|see|use|enter|type|leave|the|a|an)\b/i;
/** The start of a line, then up to four words of letters: a label before the name. */
const LABEL_BEFORE = /(?:^|\n)[ \t]{0,4}(?:[A-Za-z]{1,16}[ \t]{1,3}){0,3}[A-Za-z]{1,16}$/;

export function findAssignments(text: string, spans: Span[]): void {
  const n = text.length;
  // The unquoted value last read, by its stop set: a name inside it (a=b=c, ?token= in a URL) ends
  // where it ended, so each character is read once per stop set, not once per name before it.
  let memoStops = -1;
  let memoEnd = -1;
  // The end of the last structure (list, mapping) read as a value.
  let structureEnd = -1;
  // No match may start before pos (the end of the last match, or of the last value marked).
  let pos = 0;
  let s = 0;
  while (s < n) {
    const from = s;
    let c = text.charCodeAt(s);
    while (c !== 58 && c !== 61 && ++s < n) c = text.charCodeAt(s);
    work.reads += s - from + 1;
    if (s >= n) break;
    const sep = s++;
    // An escaped separator (Java properties: keystore.password\:prod=x) is part of a name, not its end.
    if (sep > 0 && text.charCodeAt(sep - 1) === 92) continue;
    // Backwards: make's `?=` and `+=` first (SENTRY_AUTH ?= x), then at most 3 blanks, an optional closing quote,
    // the name (a maximal run of at most 64).
    let j = sep - 1;
    if (j > 0 && (text.charCodeAt(j) === 63 || text.charCodeAt(j) === 43) && text.charCodeAt(sep) === 61) j--;
    while (j >= 0 && sep - j <= 4 && (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9)) j--;
    if (sep - 1 - j > 3 || j < 0) continue;
    const q = text.charCodeAt(j);
    const quotedName = q === 34 || q === 39;
    let nameEnd = quotedName ? j : j + 1;
    // auth.passwords[0]=x (Helm's --set, a list item in a dump): an index after the name belongs to it.
    if (!quotedName && q === 93) {
      let d = j - 1;
      while (d >= 0 && j - d <= 6 && text.charCodeAt(d) >= 48 && text.charCodeAt(d) <= 57) d--;
      if (d < j - 1 && d >= 0 && text.charCodeAt(d) === 91) nameEnd = d;
    }
    let r = nameEnd - 1;
    const lowest = Math.max(0, nameEnd - MAX_NAME); // one bound instead of two tests per character
    while (r >= lowest && NAME_CHAR[text.charCodeAt(r)] !== 0) r--;
    let nameStart = r + 1;
    // keystore.password\:prod: the name goes on before an escaped separator.
    while (nameStart >= 3 && !quotedName && text.charCodeAt(nameStart - 2) === 92 && (text.charCodeAt(nameStart - 1) === 58 || text.charCodeAt(nameStart - 1) === 61)) {
      let k = nameStart - 3;
      const low = Math.max(0, nameEnd - MAX_NAME);
      while (k >= low && NAME_CHAR[text.charCodeAt(k)] !== 0) k--;
      if (k + 1 === nameStart - 2) break;
      r = k;
      nameStart = k + 1;
    }
    if (nameStart === nameEnd || nameEnd - nameStart > MAX_NAME || (r >= 0 && NAME_CHAR[text.charCodeAt(r)] !== 0)) continue;
    if (NAME_CHAR[text.charCodeAt(nameStart)] !== 2) continue;
    let mStart = nameStart;
    if (quotedName) {
      // The same quote opens the name, and no name character stands before it.
      if (r < 0 || text.charCodeAt(r) !== q || (r > 0 && NAME_CHAR[text.charCodeAt(r - 1)] !== 0)) continue;
      mStart = r;
    }
    if (mStart < pos) continue;
    // ${NAME:-default}, ${NAME:=x}, ${NAME:?msg}: a shell expansion of the variable, not NAME set to a value
    // (a default that is a secret is template-defaults' to find).
    if (!quotedName && nameStart >= 2 && text.charCodeAt(nameStart - 1) === 123 && text.charCodeAt(nameStart - 2) === 36 && text.charCodeAt(sep) === 58) continue;
    const colonEq = text.charCodeAt(sep) === 58 && text.charCodeAt(sep + 1) === 61;
    let at = sep + (colonEq ? 2 : 1);
    // Up to 40 blanks: `heroku config`, `kubectl describe` and other reports align their values in a column.
    for (let t = 0; t < 40 && at < n && (text.charCodeAt(at) === 32 || text.charCodeAt(at) === 9); t++) at++;
    // A string literal's prefix (Python's b'…' r'…' f'…', T-SQL's N'…', PostgreSQL's E'…'): the value is the quoted string.
    if (at + 1 < n && STRING_PREFIX.has(text.charCodeAt(at)) && (text.charCodeAt(at + 1) === 39 || text.charCodeAt(at + 1) === 34)) at++;
    work.reads += at - r;
    pos = at;
    if (s < pos) s = pos;
    const maybeSensitive = maybeSensitiveName(text, nameStart, nameEnd);
    const name = maybeSensitive ? text.slice(nameStart, nameEnd) : '';
    if (maybeSensitive && isHeaderNameLength(name.length) && HEADER_NAMES.test(name)) continue;
    if (nameEnd - nameStart === 8 && text.startsWith('REDACTED', nameStart)) continue;
    const colonSep = text.charCodeAt(sep) === 58 && !colonEq;
    const before = mStart > 0 ? text.charCodeAt(mStart - 1) : -1;
    // a:b:secret:name is one colon-delimited identifier (an ARN), not a name and its value.
    if (colonSep && before === 58 && at === sep + 1) continue;
    // ${NAME:?message}, ${NAME:+word}: a shell expansion's message or alternative, not a value of NAME.
    if (colonSep && before === 123 && text.charCodeAt(mStart - 2) === 36 && (text.charCodeAt(sep + 1) === 63 || text.charCodeAt(sep + 1) === 43)) continue;
    // A quote that encloses the whole name=value ("token:rotate", -H "x=y"): the value stops there.
    const enclosed = !quotedName && (before === 34 || before === 39);
    // Where the name stands decides where an unquoted value ends.
    let lineStart = mStart;
    for (let b = text.charCodeAt(lineStart - 1); lineStart > 0 && lineStart > mStart - 12 && (b === 32 || b === 9 || b === 45); b = text.charCodeAt(lineStart - 1)) lineStart--;
    const va = text.charCodeAt(at);
    const quoted = va === 34 || va === 39 || va === 96;
    // A passphrase under a label of a few words (`Backup passphrase: three words here`) runs to the line's end, as a
    // YAML value does: a passphrase holds blanks.
    const yamlLine = colonSep && !quotedName && !quoted && (lineStart === 0 || text.charCodeAt(lineStart - 1) === 10 || (PHRASE_NAME.test(name) && LABEL_BEFORE.test(text.slice(Math.max(0, lineStart - 40), lineStart)) && !RULE_WORDS.test(text.slice(at, at + 24))));
    const inQuery = before === 63 || before === 38;
    const stopKind = inQuery ? 0 : quotedName ? 1 : 2;
    // Which way the value is read (stop set, the quote enclosing name=value, YAML line), as a number: one per name, so no
    // string is built. It indexes READ_OPTS.
    const key = stopKind * 6 + (before === 34 && !quotedName ? 2 : before === 39 && !quotedName ? 4 : 0) + (yamlLine ? 1 : 0);
    const nested = !quoted && at < memoEnd && key === memoStops;
    let sensitive = maybeSensitive && isSensitiveName(name);
    // `checksum/secret: <sha256>` (a pod's annotation): the name's path says the value is a digest of the secret.
    if (sensitive && text.charCodeAt(nameStart - 1) === 47 && DIGEST_PATH.test(text.slice(Math.max(0, nameStart - 24), nameStart))) sensitive = false;
    // "Jwt": { "Key": "x" }, signing:\n  key: x: a generic member is what its object names (jwt key, signing key).
    let judged = name;
    if (!sensitive && maybeSensitive && nameEnd - nameStart === 3 && (name === 'key' || name === 'Key' || name === 'KEY')) {
      const parent = parentName(text, mStart);
      if (parent && isSensitiveName(`${parent}_key`)) {
        sensitive = true;
        judged = `${parent}_key`;
      }
    }
    // `auth`, `_auth`, `basicAuth`: base64 of user:secret is a credential although `auth` alone is too common a name.
    // A name that ends in auth (http_auth), or says auth before a word that makes it about one (BASIC_AUTH_HEADER): a base64 user:password there is one.
    const authCandidate = !sensitive && nameEnd - nameStart >= 4 && (((text.charCodeAt(nameEnd - 1) | 32) === 104 && (text.charCodeAt(nameEnd - 2) | 32) === 116 && (text.charCodeAt(nameEnd - 3) | 32) === 117 && (text.charCodeAt(nameEnd - 4) | 32) === 97) || (nameEnd - nameStart <= 64 && AUTH_IN_NAME.test(text.slice(nameStart, nameEnd))));
    // Inside a value already read only a secret name can mark anything (a=b=c=…: no slice per name).
    if (nested && !sensitive) continue;
    // A quoted value is read for a rule only (the memo holds unquoted ones): with a short name and no secret one, none applies.
    if (quoted && !sensitive && !authCandidate && nameEnd - nameStart < 3) continue;
    // The value is text[vs, ve).
    let vs = at;
    let ve = memoEnd;
    if (!nested) {
      ve = valueEnd(text, at, READ_OPTS[key]);
      if (ve === -1) continue;
      vs = valueStart(text, at);
      // A YAML comment after the value (`key: abc123   # integration key`) is not part of it.
      if (yamlLine && !quoted) {
        let h = vs;
        while (h < ve && !(text.charCodeAt(h) === 35 && text.charCodeAt(h - 1) === 32)) h++;
        h--;
        if (h < ve - 1) {
          let e = h;
          while (e > vs && (text.charCodeAt(e - 1) === 32 || text.charCodeAt(e - 1) === 9)) e--;
          if (e <= vs) continue;
          ve = e;
        }
      }
      if (!quoted) {
        memoStops = key;
        memoEnd = ve;
      }
    }
    // "token:rotate": a JSON key with a colon in it (npm scripts), not a name and its value.
    if (enclosed && text.charCodeAt(ve) === before && text.charCodeAt(ve + 1) === 58) continue;
    // Short names (h1: in go.sum, x = ...) are code, not configuration; ids, nonces and digests are not keys.
    // The word before a spaced name counts too: `public key: …` (WireGuard) names a public key.
    const wordStart = text.charCodeAt(mStart - 1) === 32 ? previousWord(text, mStart - 1) : nameStart;
    let entropyCandidate =
      !sensitive && !nested && nameEnd - nameStart >= 3 && ve - vs >= 24 && ve - vs <= 512 && !(maybeNotSecretName(text, wordStart, nameEnd) && isNotSecretName(text.slice(wordStart, nameEnd)));
    // {"name": "x-amz-cf-id", "value": "…"} (HAR headers, k8s env, AWS tags): the pair's name says what the value is.
    // <meta name="csp-nonce" content="…">: the same for HTML's name and content attributes.
    if (entropyCandidate && (nameEnd - nameStart === 5 || nameEnd - nameStart === 7) && /^(?:[Vv]alue|content)$/.test(text.slice(nameStart, nameEnd))) {
      const pair = PAIR_NAME.exec(text.slice(Math.max(0, mStart - 200), mStart));
      if (pair && (isNotSecretName(pair[1]) || ID_NAME.test(pair[1]))) entropyCandidate = false;
    }
    if (!sensitive && !entropyCandidate && !authCandidate) continue;
    // A structure as the value: a flow mapping or inline table (`otp_token: { type: string }`, `PASSWORD = { value = "x" }`)
    // or a list (`SECRET_KEY_FALLBACKS=['x']`): its members are judged, not the text of the structure.
    // A tuple too: requests' `auth=("user", "password")`.
    if (!quoted && (text.charCodeAt(vs) === 123 || text.charCodeAt(vs) === 91 || text.charCodeAt(vs) === 40)) {
      // One inside a structure already read was judged with it.
      if (sensitive && vs >= structureEnd) structureEnd = structuredValue(text, vs, name, spans);
      // auth=("user", "password"), 'auth' => ['user', 'password']: a user and a password, the second is the secret.
      else if (authCandidate && text.charCodeAt(vs) !== 123) {
        const pair = AUTH_PAIR.exec(text.slice(vs, vs + 600));
        const v = pair ? (pair[2] ?? pair[3]) : undefined;
        // A password, not a second method name (`auth: ['jwt', 'session']`): six characters or more, a digit or a symbol in them.
        if (pair && v !== undefined && v.length >= 6 && /[^A-Za-z]/.test(v) && !isPlaceholder(v)) {
          const start = vs + pair[0].lastIndexOf(v);
          spans.push({ start, end: start + v.length, rule: 'basic-auth' });
        }
      }
      continue;
    }
    const value = text.slice(vs, ve);
    work.reads += value.length;
    if (value.includes('[REDACTED')) continue;
    // An expression cut at a quote (token = request.headers["X-Api-Token"], key = os.environ.get('K')): code that reads the secret.
    if (!quoted && ve > vs && (text.charCodeAt(ve - 1) === 91 || text.charCodeAt(ve - 1) === 40) && (text.charCodeAt(ve) === 34 || text.charCodeAt(ve) === 39)) continue;
    // `passwd: all authentication tokens updated successfully.` is a program's message, not a passphrase.
    if (yamlLine && value.includes(' ') && (SENTENCE_END.test(value) || value.split(' ').length > 6 || isProgramMessage(value))) continue;
    // `secrets: loaded 14 secrets from …` (a log's component, then its message): a word of letters after a colon,
    // with the sentence going on, is prose.
    if (colonSep && !quoted && LOWER_WORD.test(value) && SENTENCE_GOES_ON.test(text.slice(ve, Math.min(text.length, ve + 80)))) continue;
    let rule: string | undefined;
    if (sensitive && isSensitiveAssignment(judged, value)) rule = 'assignment';
    // A character set (`charset = "abc…XYZ0123456789"`, a password policy's alphabet) is random-looking but no secret.
    else if (entropyCandidate && looksRandomSecret(value) && !looksLikeIdentifier(value) && !encodesPlainData(value) && !isPlaceholder(value)) rule = 'high-entropy';
    // A bare `key:` holding 32+ hex digits (`openweather:\n  key: ce3e…`): an API key; a digest has a name that says so.
    // So do `key1` / `key2` and `primaryKey` (an Azure account's keys).
    else if (entropyCandidate && nameEnd - nameStart <= 13 && NUMBERED_KEY.test(text.slice(nameStart, nameEnd)) && HEX_KEY.test(value)) rule = 'high-entropy';
    else if (authCandidate && isBasicCredential(value)) rule = 'basic-auth';
    if (!rule) continue;
    // A placeholder with a space in it (!Ref DbPassword, <your key here>) is read to the line end.
    if (!quoted && OPENS_PLACEHOLDER[text.charCodeAt(vs)] === 1 && text.charCodeAt(ve) === 32 && isPlaceholder(text.slice(vs, lineEnd(text, vs, 256)))) continue;
    // pypi-<your-token>: the value stopped at a template's `<`.
    if (!quoted && text.charCodeAt(ve) === 60 && isPlaceholder(text.slice(vs, wordEnd(text, vs)))) continue;
    spans.push({ start: vs, end: ve, rule });
    pos = ve;
    if (s < pos) s = pos;
  }
}

const PLACEHOLDER_RUN = /([xX*0•.])\1{7}/;

// Which shapes can match at all, from one pass over the text: each position's two characters are
// looked up in a table of the hints' first two characters (45 String.includes passes, or one
// alternation of all hints, cost more than all the shape regexes together).
const ALL_HINTS = [...new Set(TOKEN_SHAPES.flatMap((s) => s.hints))];
const PAIR_SEEN = new Uint8Array(65536);
const BY_PAIR = new Map<number, string[]>();
for (const h of ALL_HINTS) {
  if (h.length < 2) throw new Error(`token hint ${h}: at least two characters`);
  const c0 = h.charCodeAt(0);
  const c1 = h.charCodeAt(1);
  PAIR_SEEN[((c0 & 0xff) << 8) | (c1 & 0xff)] = 1;
  const key = c0 * 65536 + c1;
  BY_PAIR.set(key, [...(BY_PAIR.get(key) ?? []), h]);
}

function presentHints(text: string): Set<string> {
  const found = new Set<string>();
  const n = text.length - 1;
  work.reads += text.length;
  let c1 = text.charCodeAt(0);
  for (let i = 0; i < n; i++) {
    const c0 = c1;
    c1 = text.charCodeAt(i + 1);
    if (PAIR_SEEN[((c0 & 0xff) << 8) | (c1 & 0xff)] === 0) continue;
    const list = BY_PAIR.get(c0 * 65536 + c1);
    if (list) for (const h of list) if (!found.has(h) && text.startsWith(h, i)) found.add(h);
  }
  return found;
}

// Hints holding a character that decoding a JSON escape other than \uXXXX can produce (" \ / and control characters).
const HINTS_WITH_DECODED = ALL_HINTS.filter((h) => /["\\/\b\f\n\r\t]/.test(h));

/**
 * A superset of the hints present in a decoded view (see jsonUnescaped) of a text whose present
 * hints are `inText`: enough to pick the shapes to run, since a shape finds nothing where none of its
 * hints is. Decoding copies the text between escapes, so a hint in the view that is not in the text
 * overlaps a decoded character; unless a \uXXXX escape was decoded, only HINTS_WITH_DECODED can.
 * When one was, the view is scanned.
 */
function viewHints(view: { text: string; unicode: boolean }, inText: Set<string>): Set<string> {
  if (view.unicode) return presentHints(view.text);
  const out = new Set(inText);
  for (const h of HINTS_WITH_DECODED) if (!out.has(h) && view.text.includes(h)) out.add(h);
  return out;
}

export function findTokens(text: string, spans: Span[], present = presentHints(text)): void {
  if (present.size === 0) return;
  for (const shape of TOKEN_SHAPES) {
    if (!shape.hints.some((h) => present.has(h))) continue;
    if (shape.anchor) {
      scanLines(shape.re, shape.anchor, text, (m) => tokenMatch(shape, m, text, spans));
      continue;
    }
    shape.re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = scan(shape.re, text))) {
      if (m[0].length === 0) {
        shape.re.lastIndex++;
        continue;
      }
      tokenMatch(shape, m, text, spans);
    }
  }
}

function tokenMatch(shape: TokenShape, m: RegExpExecArray, text: string, spans: Span[]): void {
  let start = m.index;
  let secret = m[0];
  if (shape.group) {
    const g = m[shape.group];
    if (!g) return;
    start = m.index + m[0].lastIndexOf(g);
    secret = g;
  }
  if (secret.startsWith('[REDACTED') || (shape.check && !shape.check(secret))) return;
  // ghp_xxxxxxxx…, sk_live_00000000…: a documented shape filled with a placeholder.
  if (PLACEHOLDER_RUN.test(secret) && !shape.name.includes('private-key')) return;
  let end = start + secret.length;
  // PuTTY: the base64 lines end before "Private-MAC:" (the class also takes the next line's first letters).
  if (shape.name === 'putty-private-key') {
    const nl = Math.max(secret.lastIndexOf('\n'), secret.lastIndexOf('\\n'));
    if (nl > 0 && /^[A-Za-z-]*$/.test(secret.slice(nl + 1).replace(/^n/, '')) && text[end] === '-') end = start + nl;
  }
  spans.push({ start, end, rule: shape.name });
}

const PARENT_JSON = /["']?([A-Za-z_][\w.-]{0,63})["']?[ \t]{0,3}[:=][ \t]{0,3}$/;
const PARENT_YAML = /^([ \t]*)["']?([A-Za-z_][\w.-]{0,63})["']?:[ \t]*\r?$/;

// The last JSON object found open, for the members after it: a thousand members of one object look back
// once, then only over what lies between one member and the next.
let parentText = '';
let parentAt = -1;
let parentOpen = -1;

/** The name of the object a member at `at` stands in: the JSON object it is in, or the YAML mapping above it. */
function parentName(text: string, at: number): string | undefined {
  if (text.charCodeAt(at) === 34 || text.charCodeAt(at) === 39) {
    let open = -1;
    let depth = 0;
    let i = at - 1;
    // From the last member's object when nothing between opened or closed one.
    const low = text === parentText && parentAt < at && parentAt >= 0 ? parentAt : Math.max(0, at - 4096);
    for (; i >= low; i--) {
      const c = text.charCodeAt(i);
      if (c === 125) depth++;
      else if (c === 123) {
        if (depth === 0) {
          open = i;
          break;
        }
        depth--;
      }
    }
    work.reads += at - i;
    if (open === -1 && i < low && low === parentAt && depth === 0) open = parentOpen;
    parentText = text;
    parentAt = at;
    parentOpen = open;
    if (open === -1) return undefined;
    return PARENT_JSON.exec(text.slice(Math.max(0, open - 80), open))?.[1];
  }
  // YAML: the nearest line above indented less, if it is a bare `name:`.
  const ls = text.lastIndexOf('\n', at - 1) + 1;
  let indent = 0;
  while (text.charCodeAt(ls + indent) === 32) indent++;
  if (indent === 0) return undefined;
  // The answer found from a line holds for every line the search passed on the way (same indent): the next
  // member of the same mapping stops there instead of reading its 40 lines again.
  if (text !== yamlText) {
    yamlText = text;
    yamlMemo.clear();
  }
  const passed: number[] = [];
  let answer: string | null | undefined;
  let e = ls - 1;
  for (let n = 0; n < 40 && e > 0; n++) {
    const s0 = text.lastIndexOf('\n', e - 1) + 1;
    const key = s0 * 256 + Math.min(indent, 255);
    const known = yamlMemo.get(key);
    if (known !== undefined) {
      answer = known;
      break;
    }
    passed.push(key);
    const line = text.slice(s0, e);
    work.reads += line.length + 1;
    const m = PARENT_YAML.exec(line);
    if (m && m[1].length < indent) {
      answer = m[2];
      break;
    }
    if (line.trim() && line.length - line.trimStart().length < indent) {
      answer = null;
      break;
    }
    e = s0 - 1;
  }
  // Only a definite answer is kept: a search that ran out of lines would reach further from a lower line.
  if (answer !== undefined && yamlMemo.size < 1 << 20) for (const k of passed) yamlMemo.set(k, answer);
  return answer ?? undefined;
}

let yamlText = '';
const yamlMemo = new Map<number, string | null>();

const QUOTED_ELEMENT = /(["'])((?:\\.|(?!\1)[^\\\n]){1,1024})\1/g;
const VALUE_MEMBER = /(?:^|[{,\s])["']?(?:value|val|plain|plaintext|default|data)["']?[ \t]{0,3}[:=][ \t]{0,3}(["'])((?:\\.|(?!\1)[^\\\n]){1,1024})\1/g;

const MAX_STRUCTURE = 2048;
const AUTH_IN_NAME = /(?:^|[_.-])auth[_.-](?:header|value|string|b64|base64|basic)$/i;
const AUTH_PAIR = /^[([][ \t]{0,3}(["'])[^"'\n]{1,128}\1[ \t]{0,3},[ \t]{0,3}(?:"((?:[^"\\\n]|\\.){1,256})"|'((?:[^'\\\n]|\\.){1,256})')[ \t]{0,3}[)\]]/;

/** The members of a structure that a secret name holds: each quoted element of a list, a mapping's value member. */
function structuredValue(text: string, vs: number, name: string, spans: Span[]): number {
  const open = text[vs];
  const close = open === '[' ? ']' : open === '(' ? ')' : '}';
  // Bounded: a structure is read at most MAX_STRUCTURE characters far (one per name, so a line of them stays linear).
  let end = Math.min(text.length, vs + MAX_STRUCTURE);
  const ahead = text.slice(vs, end);
  const nl = ahead.indexOf('\n');
  if (nl !== -1) end = vs + nl;
  const c = ahead.indexOf(close);
  if (c !== -1 && vs + c < end) end = vs + c + 1;
  work.reads += 2 * (end - vs);
  const body = text.slice(vs, end);
  // ODBC quotes a value in braces (Pwd={x;y}): a braced scalar, no members in it.
  // ({{ token }}, {api_key}, ${…}: templates, not values.)
  if (open === '{' && (text.charCodeAt(vs + 1) === 123 || isPlaceholder(body))) return end;
  if (open === '{' && body.endsWith('}') && !/[\s"']/.test(body)) {
    const v = body.slice(1, -1);
    if (isSensitiveAssignment(name, v)) spans.push({ start: vs + 1, end: vs + 1 + v.length, rule: 'assignment' });
    return end;
  }
  const re = open === '{' ? VALUE_MEMBER : QUOTED_ELEMENT;
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = scan(re, body))) {
    const v = m[2];
    if (!isSensitiveAssignment(name, v)) continue;
    const start = vs + m.index + m[0].length - 1 - v.length;
    spans.push({ start, end: start + v.length, rule: 'assignment' });
  }
  return end;
}

// Cheap pre-checks: most strings in a record are short and plain.
const HAS_ASSIGNMENT = /\w(?:["']|\[\d{1,5}\])?[ \t]{0,3}[?+]?[:=]/;
const MIN_SECRET_TEXT = 6;

/** Spans of secrets in `text`, merged, in order. */
/** The file a test runner names on its result line (`PASS src/app.test.ts`), which detectors of `NAME value` lines take for a password. */
/**
 * Inside a template expression that looks a secret up (`{{ lookup('hashi_vault', 'secret=secret/data/x') }}`): the
 * lookup's terms say where the secret is kept, they are not the secret.
 */
function inTemplateLookup(text: string, sp: Span): boolean {
  // Asked once per text, not per span: most texts hold no template expression at all.
  if (!textHas(text, 'template-expression')) return false;
  // Within 400 characters either side, on the span's line: a bounded look per span (a long line holds many spans).
  const window = text.slice(Math.max(0, sp.start - 400), sp.start);
  work.reads += window.length;
  const head = window.slice(window.lastIndexOf('\n') + 1);
  const open = head.lastIndexOf('{{');
  if (open < 0 || open < head.lastIndexOf('}}')) return false;
  const tail = text.slice(sp.end, sp.end + 400);
  const close = tail.indexOf('}}');
  const nl = tail.indexOf('\n');
  // A default given with it (`| d('x')`, `| default('x')`) is a value, and a secret if it looks like one.
  const expr = head.slice(open);
  return close >= 0 && (nl < 0 || close < nl) && /\b(?:lookup|query)[ \t]{0,3}\(/.test(expr) && !/\|[ \t]{0,3}(?:d|default)[ \t]{0,3}\(/.test(expr);
}

function isTestResultPath(text: string, sp: Span): boolean {
  if (!/PASS[ \t]{1,4}$/.test(text.slice(Math.max(0, sp.start - 8), sp.start))) return false;
  const ls = text.lastIndexOf('\n', sp.start - 1) + 1;
  return TEST_RESULT.test(text.slice(ls, Math.min(text.length, sp.end + 1)));
}

const MARKER = /\[REDACTED:([a-z0-9-]{1,40})\]/g;

/**
 * loom's own marks in a text redacted before (a record redacted again, an excerpt of one): their rule names
 * (`[REDACTED:url-credentials]`) are no names of secrets, and nothing inside one is a value. The detectors read the
 * text with each mark's name blanked to x's (offsets unchanged), and a span that touches a mark is dropped.
 */
function withoutMarks(text: string): { text: string; marks: [number, number][] } | undefined {
  if (!text.includes('[REDACTED:')) return undefined;
  const marks: [number, number][] = [];
  const neutral = text.replace(MARKER, (m: string, name: string, at: number) => {
    marks.push([at, at + m.length]);
    return `[REDACTED:${'x'.repeat(name.length)}]`;
  });
  return marks.length ? { text: neutral, marks } : undefined;
}

export function secretSpans(input: string): Span[] {
  const marked = withoutMarks(input);
  const found = detectSpans(marked ? marked.text : input);
  if (!marked) return found;
  // Marks in order; spans in order: one pass drops every span that overlaps a mark.
  const out: Span[] = [];
  let k = 0;
  for (const sp of found) {
    while (k < marked.marks.length && marked.marks[k][1] <= sp.start) k++;
    const m = marked.marks[k];
    if (m && m[0] < sp.end && sp.start < m[1]) continue;
    out.push(sp);
  }
  return out;
}

/** An environment block shown with its NULs as `\0` or `^@` (`cat /proc/PID/environ`, `cat -v`): each is a line break. */
const ENVIRON_SEPARATOR = /(?:\\0|\^@)(?=[A-Za-z_][A-Za-z0-9_]{0,127}=)/g;

function detectSpans(input: string): Span[] {
  const spans: Span[] = [];
  if (input.length < MIN_SECRET_TEXT) return spans;
  // Two characters for two: every offset found in the separated text is the same in the input.
  const text = (input.includes('\\0') || input.includes('^@')) && ENVIRON_SEPARATOR.test(input) ? input.replace(ENVIRON_SEPARATOR, '\n\n') : input;
  ENVIRON_SEPARATOR.lastIndex = 0;
  const hints = presentHints(text);
  detect(text, spans, hints);
  // Tool output often arrives JSON-encoded inside a string ({"stdout":"...\n..."}): lines, quotes and
  // command starts are then escapes. The detectors also read the decoded view; its spans map back.
  const view = jsonUnescaped(text);
  if (view) {
    const inView: Span[] = [];
    detect(view.text, inView, viewHints(view, hints));
    for (const sp of inView) spans.push({ start: view.map[sp.start], end: view.map[sp.end], rule: sp.rule });
    // Escaped output that a terminal colours or wraps: its normalized view too, mapped back through both.
    const shownView = normalizedView(view.text);
    if (shownView) {
      const inShown: Span[] = [];
      detect(shownView.text, inShown);
      for (const sp of inShown) spans.push({ start: view.map[shownView.map[sp.start]], end: view.map[shownView.map[sp.end - 1] + 1], rule: sp.rule });
    }
  }
  // What a terminal shows: colour codes dropped, box bars and typographic quotes as ASCII, wrapped secrets joined.
  const shown = normalizedView(text);
  if (shown) {
    const inView: Span[] = [];
    detect(shown.text, inView);
    for (const sp of inView) spans.push({ start: shown.map[sp.start], end: shown.map[sp.end - 1] + 1, rule: sp.rule });
  }
  // Search output (grep -n, grep -r, rg): each line read without its `path:N:` prefix.
  if (text.includes(':') && text.length <= GREP_VIEW_MAX) {
    const grepped = greppedView(text);
    if (grepped) {
      const inView: Span[] = [];
      detect(grepped.text, inView);
      for (const sp of inView) spans.push({ start: grepped.map[sp.start], end: grepped.map[sp.end - 1] + 1, rule: sp.rule });
    }
  }
  // Published examples and values marked as examples stay, whichever detector found them.
  let kept = 0;
  for (const sp of spans) {
    const found = text.slice(sp.start, Math.min(sp.end, sp.start + 4096));
    if (!isPublishedExample(found) && !isPublicKey(found) && !isKnownNotSecret(found) && !isSealedCiphertext(found, text) && !isRailsEncryptedFile(text, sp.start, sp.end) && !isTestResultPath(text, sp) && !inTemplateLookup(text, sp)) spans[kept++] = sp;
  }
  spans.length = kept;
  extendToPhrases(text, spans);
  wrappedRests(text, spans);
  if (spans.length < 2) return spans;
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  // Merged in place: the spans are this call's own objects, so no copy per span (hostile inputs hold 100k+ of them).
  let k = 0;
  for (let i = 1; i < spans.length; i++) {
    const s = spans[i];
    const last = spans[k];
    if (s.start < last.end) {
      if (s.end > last.end) last.end = s.end;
    } else spans[++k] = s;
  }
  spans.length = k + 1;
  return spans;
}

const JSON_ESCAPE = /\\["\\/bfnrtu]/;
const UNESCAPE: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

const UNESCAPE_CODE = new Int32Array(128).fill(-1);
for (const [k, v] of Object.entries(UNESCAPE)) UNESCAPE_CODE[k.charCodeAt(0)] = v.charCodeAt(0);

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 65 && c <= 70) return c - 55;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

let scratchMap = new Int32Array(0);
let scratchOut = new Uint16Array(0);
/** Set by decodeInto when it decodes a \uXXXX escape (which can produce any character). */
let decodedUnicode = false;

/** A JSON escape starts at i (a backslash and one of " \\ / b f n r t u). */
function escapeAt(text: string, i: number): boolean {
  const e = text.charCodeAt(i + 1);
  return e === 117 || (e < 128 && UNESCAPE_CODE[e] >= 0);
}

/**
 * The parts of the text a decoded view can change: each line holding a JSON escape, with the line
 * before it and the line after it (a `name:` line above a `value:` line, a table header right
 * above its rows, a quoted value that ends on the next line). An escaped line that may be a table
 * header naming a secret column (a cell separator and a sensitive-name needle or a \u escape)
 * extends its part over the table's rows: the lines below it that hold a cell separator too.
 * (To the end of the text, as before, made source code with one such line anywhere a second full
 * pass.) Escapes never pair across a real line end, so each part decodes as it would in the whole text.
 */
function escapedParts(text: string): number[] {
  const n = text.length;
  const parts: number[] = [];
  let i = text.indexOf('\\');
  while (i !== -1) {
    if (!escapeAt(text, i)) {
      i = text.indexOf('\\', i + 1);
      continue;
    }
    const ls = text.lastIndexOf('\n', i) + 1;
    let le = text.indexOf('\n', i);
    if (le === -1) le = n;
    const start = ls > 0 ? text.lastIndexOf('\n', ls - 2) + 1 : 0;
    let end = le < n ? text.indexOf('\n', le + 1) : n;
    if (end === -1) end = n;
    work.reads += end - start;
    if (mayBeHeader(text, ls, le)) end = tableEnd(text, end);
    if (parts.length > 0 && start <= parts[parts.length - 1]) parts[parts.length - 1] = Math.max(parts[parts.length - 1], end);
    else parts.push(start, end);
    if (end >= n) break;
    i = text.indexOf('\\', le);
  }
  return parts;
}

const CELL_SEPARATOR = /[,|;\t]|\\t/;

/** The end of the run of lines from `from` that hold a cell separator (a table's rows), and one line more. */
function tableEnd(text: string, from: number): number {
  const n = text.length;
  let at = from;
  while (at < n) {
    let le = text.indexOf('\n', at + 1);
    if (le === -1) le = n;
    work.reads += le - at;
    const row = CELL_SEPARATOR.test(text.slice(at, le));
    at = le;
    if (!row) break;
  }
  return at;
}

function mayBeHeader(text: string, ls: number, le: number): boolean {
  const line = text.slice(ls, le);
  return CELL_SEPARATOR.test(line) && (maybeSensitiveName(text, ls, le) || line.includes('\\u'));
}

/** Decodes text[from, to) into the scratch buffers at k; returns the new k. */
function decodeInto(text: string, from: number, to: number, out: Uint16Array, map: Int32Array, k: number): number {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    map[k] = i;
    if (c === 92 && i + 1 < to) {
      const e = text.charCodeAt(i + 1);
      if (e === 117 && i + 5 < to) {
        const h = (hexValue(text.charCodeAt(i + 2)) << 12) | (hexValue(text.charCodeAt(i + 3)) << 8) | (hexValue(text.charCodeAt(i + 4)) << 4) | hexValue(text.charCodeAt(i + 5));
        const ok = hexValue(text.charCodeAt(i + 2)) >= 0 && hexValue(text.charCodeAt(i + 3)) >= 0 && hexValue(text.charCodeAt(i + 4)) >= 0 && hexValue(text.charCodeAt(i + 5)) >= 0;
        if (ok) {
          decodedUnicode = true;
          out[k++] = h;
          i += 5;
          continue;
        }
      } else if (e < 128 && UNESCAPE_CODE[e] >= 0) {
        out[k++] = UNESCAPE_CODE[e];
        i++;
        continue;
      }
    }
    out[k++] = c;
  }
  return k;
}

/**
 * The escaped parts of the text (see escapedParts) with JSON string escapes decoded, one part per
 * line, and for each decoded index the index it came from (valid until the next call).
 */
export function jsonUnescaped(text: string): { text: string; map: Int32Array; unicode: boolean } | undefined {
  if (!JSON_ESCAPE.test(text)) return undefined;
  const parts = escapedParts(text);
  decodedUnicode = false;
  if (parts.length === 0) return undefined;
  const n = text.length;
  // Scratch buffers kept between calls (a megabyte of output needs 6 MB of them): the map is read
  // only before the next call, and the decoded text is a copy.
  if (scratchMap.length < n + 1) {
    scratchMap = new Int32Array(n + 1);
    scratchOut = new Uint16Array(n + 1);
  }
  const map = scratchMap;
  // UTF-16 code units into a buffer, decoded once: no string built piece by piece.
  const out = scratchOut;
  let k = 0;
  for (let p = 0; p < parts.length; p += 2) {
    if (p > 0) {
      // Parts are joined by a line end that stands for the plain text between them.
      map[k] = parts[p - 1];
      out[k++] = 10;
    }
    work.reads += parts[p + 1] - parts[p];
    k = decodeInto(text, parts[p], parts[p + 1], out, map, k);
  }
  map[k] = parts[parts.length - 1];
  return { text: Buffer.from(out.buffer, 0, k * 2).toString('utf16le'), map: map.subarray(0, k + 1), unicode: decodedUnicode };
}

function detect(text: string, spans: Span[], hints: Set<string> = presentHints(text)): void {
  findTokens(text, spans, hints);
  if (text.includes('://')) findUrlCredentials(text, spans);
  if (text.includes('://')) findSpacedUrlPasswords(text, spans);
  findHeaders(text, spans);
  findCliSecrets(text, spans);
  findArgvListSecrets(text, spans);
  findWordDiffSecrets(text, spans);
  findLabelledPhrases(text, spans);
  findFormDataSecrets(text, spans);
  findLineSecrets(text, spans);
  findFormatSecrets(text, spans);
  const assigns = HAS_ASSIGNMENT.test(text);
  if (assigns) findAssignments(text, spans);
  // (XML's <value> child needs no `=`: <Password><Value>x</Value>.)
  if ((assigns && (text.includes('alue') || text.includes('Data'))) || text.includes('alue>')) findNameValuePairs(text, spans);
  findSeedPhrases(text, spans);
  findWifKeys(text, spans);
  findKeypairArrays(text, spans);
  findWalletHexKeys(text, spans);
  findLicenseBlocks(text, spans);
  findProductKeys(text, spans);
  findLicenseKeys(text, spans);
  findGemCredentials(text, spans);
  findPromptedSecrets(text, spans);
  findAskpassSecrets(text, spans);
  findOnePasswordFields(text, spans);
  findCurlCookies(text, spans);
  findArrowPairs(text, spans);
  findWrappedValues(text, spans);
  if (text.includes('\n')) findNextLineValues(text, spans);
  findParameterPaths(text, spans);
  findPairedLiterals(text, spans);
  findNamedSecretFlags(text, spans);
  findServerDirectives(text, spans);
  findProvisioningSecrets(text, spans);
  findLiteralConversions(text, spans);
  findCLiterals(text, spans);
  findBuildConfigFields(text, spans);
  findKeyBodies(text, spans);
  findReplEchoes(text, spans);
  findEncodedPrintedSecrets(text, spans);
  findDebuggerEchoes(text, spans);
  findProtocolLogSecrets(text, spans);
  findIniSectionSecrets(text, spans);
  if (!decoding) findEncodedSecrets(text, spans);
  findNameValueReports(text, spans);
  findHtmlSecrets(text, spans);
  findTemplateDefaults(text, spans);
  findCodeFallbacks(text, spans);
  findShellSets(text, spans);
  if (text.includes('\n')) findEnvDumpValues(text, spans);
  findKvTables(text, spans);
  findAlignedTables(text, spans);
  findBackupCodes(text, spans);
  findDotLeaders(text, spans);
  findSplitLiterals(text, spans);
  findDecoderLiterals(text, spans, (decoded) => { const inside: Span[] = []; detect(decoded, inside); return inside.length > 0; });
  findHexDumpSecrets(text, spans, (decoded) => { const inside: Span[] = []; detect(decoded, inside); return inside; });
  findRepeatedSecrets(text, spans);
}

function redactString(input: string): { text: string; count: number } {
  const spans = secretSpans(input);
  if (spans.length === 0) return { text: input, count: 0 };
  let out = '';
  let last = 0;
  for (const s of spans) {
    out += input.slice(last, s.start) + `[REDACTED:${s.rule}]`;
    last = s.end;
  }
  return { text: out + input.slice(last), count: spans.length };
}

export const MAX_REDACT_DEPTH = 64;

/** Redacts every string in a JSON-like value (keys included); returns a new value and the count. */
export function redact<T>(value: T): RedactionResult<T> {
  let count = 0;
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') {
      const r = redactString(v);
      count += r.count;
      return r.text;
    }
    if (v === null || typeof v !== 'object') return v;
    if (depth > MAX_REDACT_DEPTH) return '[TRUNCATED: nested too deep]';
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
    const src = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(src)) {
      const x = src[k];
      // A JSON member whose name says secret: judge the value as if assigned.
      if (typeof x === 'string' && !x.startsWith('[REDACTED') && isSensitiveAssignment(k, x)) {
        count++;
        setOwn(out, walk(k, depth + 1) as string, '[REDACTED:assignment]');
        continue;
      }
      setOwn(out, walk(k, depth + 1) as string, walk(x, depth + 1));
    }
    return out;
  };
  const result = walk(value, 0) as T;
  return { value: result, count };
}

export function redactText(text: string): string {
  return redactString(text).text;
}

/** Longest secret a detector reads past a cut (a PEM block is matched to the end of the text). */
const CLIP_MARGIN = 8192;

/**
 * A bounded excerpt with its secrets removed. Redacting after the cut would
 * keep the head of a secret that straddles it (the cut token no longer has
 * its shape), so the text is redacted first, with a margin past the cut.
 */
export function clipRedacted(text: string, max: number): string {
  if (text.length <= max) return text;
  const red = redactText(text.slice(0, max + CLIP_MARGIN));
  return red.length > max ? red.slice(0, max) + '…' : red;
}
