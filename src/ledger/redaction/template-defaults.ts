// Literal fallbacks in templates: Jinja and Ansible's `{{ mysql_root_password | default('x') }}`
// (or `| d('x')`) under a secret name, or of a secret-named variable: the literal is the secret
// used when the variable is unset; the reference itself is not. And Maven's encrypted passwords:
// settings-security.xml's `<master>{base64=}</master>` and what `mvn --encrypt-password` and
// `--encrypt-master-password` print (a braced base64 line), which Maven decrypts to the password.
import { isPlaceholder, isSensitiveName } from './names';
import { scanLines } from './anchored';
import type { Span } from './text';
import { work } from './work';

const DEFAULT = /\{\{[ \t]{0,4}([^{}\n]{0,200}?)\|[ \t]{0,4}(?:default|d)[ \t]{0,2}\([ \t]{0,4}(["'])([^"'\n]{1,256})\2/g;
const DEFAULT_ANCHOR = /\|[ \t]{0,4}(?:default|d)[ \t]{0,2}\(/g;
const FIRST_NAME = /[A-Za-z_][\w]{0,63}/g;
const NAME_BEFORE = /([A-Za-z_][\w.-]{0,63})["']?[ \t]{0,3}(?::|=|:=)[ \t]{0,3}["']?[ \t]{0,3}$/;

const MAVEN_MASTER = /<(master|password|passphrase|privateKey|keyPassword)>[ \t]{0,4}\{([A-Za-z0-9+/]{8,512}={0,2})\}[ \t]{0,4}<\/\1>/g;
const MAVEN_ANCHOR = /<(?:master|password|passphrase|privateKey|keyPassword)>/g;
const MAVEN_HINT = /<(?:master|password|passphrase|privateKey|keyPassword)>[ \t]{0,4}\{/;
const MVN_ENCRYPT = /\bmvn\b[^\n]{0,200}(?:--encrypt-password|--encrypt-master-password|\s-ep\b|\s-emp\b)/g;
const BRACED_LINE = /^[ \t]{0,4}\{([A-Za-z0-9+/]{8,512}={0,2})\}[ \t]*\r?$/;

function named(expr: string, text: string, at: number): boolean {
  FIRST_NAME.lastIndex = 0;
  let w: RegExpExecArray | null;
  while ((w = FIRST_NAME.exec(expr))) if (w[0].length > 2 && isSensitiveName(w[0])) return true;
  const ls = text.lastIndexOf('\n', at - 1) + 1;
  const before = text.slice(Math.max(ls, at - 100), at);
  work.reads += before.length;
  const n = NAME_BEFORE.exec(before);
  return n !== null && isSensitiveName(n[1]);
}

export function findTemplateDefaults(text: string, spans: Span[]): void {
  if (text.includes('{{') && (text.includes('default') || text.includes('|d') || text.includes('| d'))) {
    scanLines(DEFAULT, DEFAULT_ANCHOR, text, (m) => {
      const v = m[3];
      if (isPlaceholder(v) || !named(m[1], text, m.index)) return;
      const start = m.index + m[0].length - 1 - v.length;
      spans.push({ start, end: start + v.length, rule: 'template-default' });
    });
  }
  if (MAVEN_HINT.test(text)) {
    scanLines(MAVEN_MASTER, MAVEN_ANCHOR, text, (m) => {
      const start = m.index + m[0].indexOf('{') + 1;
      spans.push({ start, end: start + m[2].length, rule: 'maven-encrypted' });
    });
  }
  if (text.includes('mvn')) {
    MVN_ENCRYPT.lastIndex = 0;
    let from = 0;
    while (MVN_ENCRYPT.exec(text)) {
      work.reads += MVN_ENCRYPT.lastIndex - from;
      // The braced line among the next four (after the prompt).
      let ls = text.indexOf('\n', MVN_ENCRYPT.lastIndex) + 1;
      for (let k = 0; k < 4 && ls > 0 && ls < text.length; k++) {
        let le = text.indexOf('\n', ls);
        if (le === -1) le = text.length;
        if (le - ls > 600) break;
        work.reads += le - ls;
        const b = BRACED_LINE.exec(text.slice(ls, le));
        if (b) {
          const start = text.indexOf('{', ls) + 1;
          spans.push({ start, end: start + b[1].length, rule: 'maven-encrypted' });
          break;
        }
        ls = le + 1;
      }
      from = MVN_ENCRYPT.lastIndex = Math.max(MVN_ENCRYPT.lastIndex, ls);
    }
  }
}
