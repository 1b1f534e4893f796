// Key/Value tables of secret stores: `vault kv get` and `vault read` print a `Key  Value` header,
// a line of dashes, then one row per key. Under a `== Data ==` heading every value is secret
// data, whatever its key is called; under a command or heading that names a secret store
// (vault, a secret/ or kv path, creds) every value but the store's own metadata is.
import { isPlaceholder } from './names';
import type { Span } from './text';
import { work } from './work';

const HEADER = /^[ \t]{0,4}Key[ \t]{2,60}Value[ \t]*\r?$/;
const DASHES = /^[ \t]{0,4}-{3,}[ \t]{2,60}-{3,}[ \t]*\r?$/;
const ROW = /^[ \t]{0,4}(\S{1,128})[ \t]{2,80}(\S[^\n]{0,2047}?)[ \t]*\r?$/;
const HEADING = /^[ \t]{0,4}=+[ \t]{1,4}([A-Za-z][A-Za-z ]{0,40}?)[ \t]{1,4}=+[ \t]*\r?$/;
const SECRET_CONTEXT = /\bvault\b|\bsecrets?\/|\bkv\b|\/creds\/|\bsecrets?\b/i;
/** Vault's own fields beside the data (a lease, a token's policies, a version's times). */
const METADATA_KEY = /^(?:lease_id|lease_duration|lease_renewable|renewable|created_time|deletion_time|destroyed|version|custom_metadata|ttl|policies|token_policies|identity_policies|token_duration|token_renewable|token_accessor|accessor|username|user|path|type|id|name|entity_id|orphan|num_uses|expire_time|issue_time|creation_time|explicit_max_ttl|meta|period|display_name|key_type|mount_type)$/;
const NO_VALUE = /^(?:n\/a|<nil>|<none>|map\[\]|\[\]|-|true|false|\d{1,12}(?:[smhd])?)$/;

export function findKvTables(text: string, spans: Span[]): void {
  if (!text.includes('Value') || !text.includes('---')) return;
  let i = text.indexOf('Value');
  while (i !== -1) {
    const ls = text.lastIndexOf('\n', i) + 1;
    let le = text.indexOf('\n', i);
    if (le === -1) le = text.length;
    work.reads += le - ls;
    let next = le;
    if (le - ls < 200 && HEADER.test(text.slice(ls, le)) && le < text.length) {
      let de = text.indexOf('\n', le + 1);
      if (de === -1) de = text.length;
      work.reads += de - le;
      if (de - le < 200 && DASHES.test(text.slice(le + 1, de))) {
        const data = context(text, ls);
        next = de;
        if (data !== 'none') {
          // The rows, to a blank line or a line that is no row.
          let rs = de + 1;
          for (let k = 0; k < 512 && rs < text.length; k++) {
            let re = text.indexOf('\n', rs);
            if (re === -1) re = text.length;
            if (re - rs > 2200) break;
            const row = text.slice(rs, re);
            work.reads += row.length;
            const m = ROW.exec(row);
            if (!m || HEADER.test(row)) break;
            const v = m[2];
            if ((data === 'data' || !METADATA_KEY.test(m[1])) && !NO_VALUE.test(v) && !isPlaceholder(v)) {
              const at = rs + row.length - row.replace(/^[ \t]{0,4}\S{1,128}[ \t]{2,80}/, '').length;
              spans.push({ start: at, end: at + v.length, rule: 'kv-table' });
            }
            next = re;
            rs = re + 1;
          }
        }
      }
    }
    i = text.indexOf('Value', Math.max(next, i + 5));
  }
}

/** What the table above `ls` is: under a Data heading, under a secret store's command or path, or neither. */
function context(text: string, ls: number): 'data' | 'store' | 'none' {
  let e = ls - 1;
  for (let k = 0; k < 8 && e > 0; k++) {
    const s = text.lastIndexOf('\n', e - 1) + 1;
    if (e - s > 400) return 'none';
    const l = text.slice(s, e);
    work.reads += l.length;
    const h = HEADING.exec(l);
    if (h) {
      if (/^(?:secret )?data$/i.test(h[1].trim())) return 'data';
      if (/metadata/i.test(h[1])) return 'none';
    }
    if (SECRET_CONTEXT.test(l)) return 'store';
    e = s - 1;
  }
  return 'none';
}
