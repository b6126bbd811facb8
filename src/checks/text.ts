/** How a text the suite sent comes back: as sent, or changed in a way the spec leaves open. */
import { NOT_APPLICABLE, type Verdict } from './types.ts';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Whether a string came back as sent. A lone surrogate may come back as U+FFFD: RFC 8259 §8.2
 * leaves what a receiver makes of one unpredictable (Go's encoding/json replaces it). The text may
 * also come back in Unicode Normalization Form C, canonically equivalent (see returnedAsNfc).
 */
export function echoes(actual: unknown, sent: string): boolean {
  if (actual === sent) return true;
  if (typeof actual !== 'string') return false;
  const replaced = sent.replace(LONE_SURROGATE, '\uFFFD');
  return actual === replaced || actual === replaced.normalize('NFC');
}

/** Whether a string came back changed only by NFC normalisation (after any U+FFFD in place of a lone surrogate). */
export function returnedAsNfc(actual: unknown, sent: string): boolean {
  if (typeof actual !== 'string') return false;
  const replaced = sent.replace(LONE_SURROGATE, '\uFFFD');
  return actual !== replaced && actual !== sent && actual === replaced.normalize('NFC');
}

/** Records a text a server returned in NFC, e.g. U+F900 as U+8C48 (canonically equivalent, so echoes accepts it). */
export function nfcVerdict(actual: unknown, sent: unknown, what: string): Verdict {
  if (typeof sent !== 'string' || !returnedAsNfc(actual, sent)) return NOT_APPLICABLE;
  return { outcome: 'observe', value: `${what} returned normalised to Unicode NFC (canonically equivalent to the one sent)` };
}
