import { SHORT_SECRET_LENGTH } from '../../src/secrets.ts';

/** Whether `form` shows up where redaction promises to replace it: anywhere, or as a token when short. */
export function shows(text: string, form: string): boolean {
  if (form.length >= SHORT_SECRET_LENGTH) return text.includes(form);
  return new RegExp(`(?<![\\p{L}\\p{N}_-])${form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}_-])`, 'u').test(text);
}
