/** The small pieces of report.html's markup: escaping, element ids, outcome marks. */
import { OUTCOME_LABEL, OUTCOME_MARK } from '../format.ts';
import type { Outcome } from '../model.ts';
import { sanitizeText } from '../sanitize.ts';

/** Sanitises and escapes text for HTML element content and quoted attribute values. */
export function esc(s: string): string {
  return sanitizeText(s)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Unique, attribute-safe element ids. */
export class Ids {
  private readonly used = new Set<string>();
  make(prefix: string, raw: string): string {
    const base = `${prefix}-${raw.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || 'x'}`;
    let id = base;
    for (let n = 2; this.used.has(id); n++) id = `${base}-${n}`;
    this.used.add(id);
    return id;
  }
}

export function badge(outcome: Outcome): string {
  return `<span class="badge o-${outcome}">${OUTCOME_LABEL[outcome]}</span>`;
}

export function mark(outcome: Outcome): string {
  return `<span class="mark ${outcome}" aria-hidden="true">${OUTCOME_MARK[outcome]}</span>`;
}

export function pre(text: string, id?: string): string {
  return `<pre${id ? ` id="${id}"` : ''}>${esc(text)}</pre>`;
}
