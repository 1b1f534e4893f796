// License keys passed to a licensing call: LicenseManager.setLicenseKey("…") (AG Grid),
// registerLicense('…') (Syncfusion), SyncfusionLicenseProvider.RegisterLicense("…"),
// License.SetLicenseKey("…"), Spire's LicenseProvider.SetLicenseKey("…"), applyLicense(…).
// The first string argument goes (a path, `process.env.X` or a template stays).
import { isFilePath, isPlaceholder } from './names';
import { scanLines } from './anchored';
import type { Span } from './text';

const LICENSE_CALL = /\b(?:set|register|apply|add|use|install|activate|init)_?Licen[cs]e(?:_?Key|_?Code)?[ \t]{0,3}\([ \t]{0,3}(?:[A-Za-z_$][\w$.]{0,40}[ \t]{0,2},[ \t]{0,3})?(["'`])([^"'`\n]{8,2048})\1/gi;
const LICENSE_ANCHOR = /icen[cs]e/gi;

export function findLicenseKeys(text: string, spans: Span[]): void {
  if (!text.includes('(')) return;
  scanLines(LICENSE_CALL, LICENSE_ANCHOR, text, (m) => {
    const v = m[2];
    if (isPlaceholder(v) || isFilePath(v) || /\.(?:lic|xml|json|txt|key)$/i.test(v)) return;
    const start = m.index + m[0].length - 1 - v.length;
    spans.push({ start, end: start + v.length, rule: 'license-key' });
  });
}
