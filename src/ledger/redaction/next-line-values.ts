// A name alone on its line and the value alone on the next (a blank line
// between is allowed): kubectl's go-template output (`DB_PASSWORD` then the
// value), Maven's settings.xml (`<password>`, the value, `</password>`), a
// banner that names a secret and ends in a colon ("API key:", "use the
// following password to proceed:") and prints it indented below. The value
// is one word with a digit or a symbol in it; a line that opens a mapping,
// a list, a heading rule or a placeholder is not one. A YAML block scalar
// under a secret's name (`vault_db_password: |` or `>-`, then indented
// lines: ansible-vault view, Helm values) is its value, every line of it.
import { isPlaceholder, isSensitiveAssignment, isSensitiveName } from './names';
import type { Span } from './text';
import { work } from './work';

const TAG_LINE = /^[ \t]{0,32}<([A-Za-z_][\w.:-]{0,63})>[ \t]*\r?$/;
const NAME_LINE = /^[ \t]{0,32}([A-Za-z_][\w.-]{0,63})[ \t]*:?[ \t]*\r?$/;
// A key-value store's key, its value on the next line (etcdctl get --prefix, consul kv get -recurse -keys): an
// absolute key path whose last part names the secret.
const KEY_PATH_LINE = /^\/(?:[\w.-]{1,64}\/){0,16}([A-Za-z_][\w.-]{0,63})\r?$/;
const BANNER_LINE = /^[ \t]{0,32}((?:[A-Za-z][\w'’,()-]*[ \t]){0,12}?(?:password|passphrase|passcode|token|secret|api[ _-]?key|access[ _-]?key|secret[ _-]?key|private[ _-]?key|key)(?:[ \t][\w'’,()-]+){0,8}):[ \t]*\r?$/i;
const VALUE_LINE = /^[ \t]{0,32}(\S{6,4096}?)[ \t]*\r?$/;
// A log line that ends in `name=` and goes on below (`rotate: created key AKIA…, secret=`, then the secret on the
// next log lines, each after its timestamp): the value, in up to MAX_PIECES pieces.
const TRAILING_NAME = /(?:^|[\s,;(])([A-Za-z_][\w.-]{0,63})[ \t]?=[ \t]*\r?$/;
const LOG_PREFIX = /^(?:\[[0-9][^\]\n]{3,40}\]|\d{4}-\d\d-\d\d[T ][\d:.,]{5,15}Z?)?/;
const MAX_PIECES = 4;
const DIGIT_OR_SYMBOL = /[^A-Za-z]/;
const BLOCK_SCALAR = /^([ \t]{0,32})-?[ \t]{0,4}([A-Za-z_][\w.-]{0,63})[ \t]*:[ \t]*[|>][+-]?[1-9]?[ \t]*\r?$/;
const MAX_BLOCK_LINES = 64;
const NOT_A_VALUE = /^(?:[-=*#~_<>|`]|\$\{|\{\{)|:$|^(?:none|null|nil|true|false|undefined|required|optional|hidden|redacted|\*+)$/i;
// Another name (a list of variable names, one per line): SLACK_WEBHOOK_URL, db.password.
const A_NAME = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;

export function findNextLineValues(text: string, spans: Span[]): void {
  if (text.includes(': |') || text.includes(': >') || text.includes(':|') || text.includes(':>')) findBlockScalars(text, spans);
  let ls = 0;
  let prevName: { name: string; tag?: string; path?: boolean; pieces?: number } | undefined;
  let blanks = 0;
  while (ls <= text.length) {
    let le = text.indexOf('\n', ls);
    if (le === -1) le = text.length;
    const len = le - ls;
    if (len > 0 && len <= 200) {
      work.reads += len;
      const line = text.slice(ls, le);
      let continued = false;
      if (prevName && line.trim()) {
        const prefix = prevName.pieces !== undefined ? LOG_PREFIX.exec(line)![0].length : 0;
        const v = VALUE_LINE.exec(prefix ? line.slice(prefix) : line);
        const word = v?.[1];
        // After a key path, another key path is the next key, not a value.
        // A piece is no assignment of its own (`PASSWORD_MIN_LENGTH=8` on the next line of a .env file).
        if (word && !(prevName.pieces !== undefined && /^[A-Za-z_][\w.-]*[=:]/.test(word)) && !(prevName.path && word.startsWith('/')) && DIGIT_OR_SYMBOL.test(word) && !NOT_A_VALUE.test(word) && !A_NAME.test(word) && !(/^[A-Za-z_][\w.]*$/.test(word) && isSensitiveName(word)) && !isPlaceholder(word) && isSensitiveAssignment(prevName.name, word)) {
          const start = ls + prefix + line.slice(prefix).indexOf(word);
          spans.push({ start, end: start + word.length, rule: 'assignment' });
          continued = prevName.pieces !== undefined && ++prevName.pieces < MAX_PIECES;
        }
        if (!continued) prevName = undefined;
      }
      if (continued) {
        // The next piece, if any, is on the next line.
      } else if (!line.trim()) {
        if (prevName && ++blanks > 1) prevName = undefined;
      } else {
        blanks = 0;
        const tag = TAG_LINE.exec(line);
        const bare = tag ? undefined : (NAME_LINE.exec(line) ?? (line.charCodeAt(0) === 47 ? KEY_PATH_LINE.exec(line) : null));
        const banner = tag || bare ? undefined : BANNER_LINE.exec(line);
        if (tag && isSensitiveName(tag[1].replace(/^[\w-]+:/, ''))) prevName = { name: tag[1].replace(/^[\w-]+:/, ''), tag: tag[1] };
        else if (bare && isSensitiveName(bare[1])) prevName = { name: bare[1], path: line.charCodeAt(0) === 47 };
        else if (banner) prevName = { name: 'password' };
        else if (line.charCodeAt(line.length - 1) === 61 || line.endsWith('=\r') || line.endsWith('= ')) {
          // Not a line's only assignment (`SENTRY_DSN=` in a .env file is empty): a name after other words of a log line.
          const t = TRAILING_NAME.exec(line);
          if (t && t.index > 0 && line.slice(0, t.index).trim() !== '' && isSensitiveName(t[1])) prevName = { name: t[1], pieces: 0 };
        }
      }
    } else if (len > 200) prevName = undefined;
    else if (prevName && ++blanks > 1) prevName = undefined;
    if (le >= text.length) break;
    ls = le + 1;
  }
}

/** Every line of a block scalar under a secret's name: the lines indented deeper than the name, up to the first that is not. */
function findBlockScalars(text: string, spans: Span[]): void {
  let ls = 0;
  while (ls < text.length) {
    let le = text.indexOf('\n', ls);
    if (le === -1) le = text.length;
    work.reads += le - ls;
    const b = le - ls <= 200 ? BLOCK_SCALAR.exec(text.slice(ls, le)) : null;
    ls = le + 1;
    if (!b || !isSensitiveName(b[2])) continue;
    const indent = b[1].length;
    for (let k = 0; k < MAX_BLOCK_LINES && ls < text.length; k++) {
      let e = text.indexOf('\n', ls);
      if (e === -1) e = text.length;
      const line = text.slice(ls, e);
      work.reads += line.length;
      const lead = line.length - line.trimStart().length;
      if (line.trim() && lead <= indent) break;
      const body = line.trim();
      if (body && !isPlaceholder(body)) spans.push({ start: ls + lead, end: ls + lead + line.trimEnd().length - lead, rule: 'assignment' });
      ls = e + 1;
    }
  }
}
