// Credentials of private gem sources (Sidekiq Pro/Enterprise on gems.contribsys.com, GitHub
// Packages, Gemfury): `bundle config [set] [--global|--local] <host> USER:PASS`, the environment
// form BUNDLE_GEMS__CONTRIBSYS__COM=USER:PASS (and its .bundle/config line), and the listing
// `bundle config` prints: the host's line, then `Set for the current user (…): "USER:PASS"`.
import { isPlaceholder } from './names';
import type { Span } from './text';
import { scan, work } from './work';

// bundle config [set] [--global|--local] host user:pass
const BUNDLE_CONFIG = /\bbundle[ \t]{1,4}config(?:[ \t]{1,4}set)?(?:[ \t]{1,4}--(?:global|local))?[ \t]{1,4}(?:https?:\/\/)?([A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,6})\/?[ \t]{1,4}(["']?)([^\s"':]{1,128}:[^\s"']{1,512})\2/g;
// BUNDLE_GEMS__CONTRIBSYS__COM=user:pass, BUNDLE_RUBYGEMS__PKG__GITHUB__COM: "user:pass"
const BUNDLE_ENV = /\bBUNDLE_[A-Z0-9_]{1,80}__[A-Z0-9_]{1,80}["']?[ \t]{0,3}[:=][ \t]{0,3}(["']?)([^\s"':]{1,128}:[^\s"']{1,512})\1/g;
// The listing: a host line, then one or more `Set …: "value"` lines.
const LISTING = /^(?:https?:\/\/)?[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,6}\/?\r?\n((?:Set (?:for|via) [^\n"]{0,300}: "[^"\n]{1,600}"\r?\n?){1,4})/gm;
const SET_VALUE = /: "([^"\n]{1,600})"/g;

function push(spans: Span[], start: number, v: string): void {
  if (!v.includes(':') || /^[a-z][a-z0-9+.-]{1,20}:\/\//i.test(v) || isPlaceholder(v) || isPlaceholder(v.slice(v.indexOf(':') + 1))) return;
  spans.push({ start, end: start + v.length, rule: 'gem-source-credentials' });
}

export function findGemCredentials(text: string, spans: Span[]): void {
  let m: RegExpExecArray | null;
  if (text.includes('bundle')) {
    BUNDLE_CONFIG.lastIndex = 0;
    while ((m = scan(BUNDLE_CONFIG, text))) push(spans, m.index + m[0].length - m[2].length - m[3].length, m[3]);
  }
  if (text.includes('BUNDLE_')) {
    BUNDLE_ENV.lastIndex = 0;
    while ((m = scan(BUNDLE_ENV, text))) push(spans, m.index + m[0].length - m[1].length - m[2].length, m[2]);
  }
  if (text.includes('Set for ') || text.includes('Set via ')) {
    LISTING.lastIndex = 0;
    while ((m = scan(LISTING, text))) {
      const from = m.index + m[0].length - m[1].length;
      work.reads += m[1].length;
      SET_VALUE.lastIndex = 0;
      let v: RegExpExecArray | null;
      while ((v = SET_VALUE.exec(m[1]))) push(spans, from + v.index + 3, v[1]);
    }
  }
}
