// Redaction as the hook path calls it: every string is screened first
// (redaction/screen.ts), and the detectors (./redact) are loaded only when a
// string may hold a secret. A plain PreToolUse record (a command, a path, a
// tool name, an id) is then recorded without loading them: that is several
// milliseconds of every hook's start. The answer is the same as ./redact's:
// test/redaction-screen.test.ts checks that a screened-out string has no
// secret span on every string of the redaction tests.
import type * as Detectors from './redact';
import { mayHoldSecret, mayHoldSecretValue } from './redaction/screen';

export type { RedactionResult } from './redact';

let detectors: typeof Detectors | undefined;
const load = (): typeof Detectors => (detectors ??= require('./redact') as typeof Detectors);

/** The nesting the detectors' walk keeps (MAX_REDACT_DEPTH in ./redact); deeper values go to it to be truncated. */
const MAX_DEPTH = 64;
/** Shorter than any token shape the detectors find (the shortest, Twilio's and Telegram's, are over 30). */
const MIN_TOKEN_KEY = 16;

/** Does any string in the value (keys included) need the detectors? */
function needsDetectors(v: unknown, depth: number): boolean {
  // Keys are screened strictly below; a string here is a value or a list item, read by the detectors on its own.
  if (typeof v === 'string') return mayHoldSecretValue(v);
  if (v === null || typeof v !== 'object') return false;
  if (depth > MAX_DEPTH) return true;
  if (Array.isArray(v)) return v.some((x) => needsDetectors(x, depth + 1));
  for (const k of Object.keys(v)) {
    const x = (v as Record<string, unknown>)[k];
    // A key matters as a name over a string value (password: …), or as text itself only when it is long enough to
    // be a token: `paths` over a list is neither (its needle `pat` would send every record to the detectors).
    if ((typeof x === 'string' || k.length >= MIN_TOKEN_KEY) && mayHoldSecret(k)) return true;
    if (needsDetectors(x, depth + 1)) return true;
  }
  return false;
}

export function redact<T>(value: T): Detectors.RedactionResult<T> {
  return needsDetectors(value, 0) ? load().redact(value) : { value, count: 0 };
}

export function redactText(text: string): string {
  return mayHoldSecret(text) ? load().redactText(text) : text;
}

/** As ./redact's: a text within `max` is returned as it is (the record it goes into is redacted whole). */
export function clipRedacted(text: string, max: number): string {
  return text.length <= max ? text : load().clipRedacted(text, max);
}

/** Whether the detectors were loaded in this process (for the test that a plain record does not load them). */
export function detectorsLoaded(): boolean {
  return detectors !== undefined;
}
