/**
 * The ids answers showed holding an animal (GET /pets/{petId} of that id, or a listing), each with
 * when its answer came and what it showed, so that a 201 anywhere in the run can be set against them
 * (state.id-fresh): an id shown holding another animal before the create was sent was taken.
 */
import { jsonBody, jsonObject, type Exchange } from '../http/exchange.ts';
import { isJsonObject, stringifyJson, type JsonValue } from '../json/lossless.ts';

interface Shown {
  atMs: number;
  name: JsonValue | undefined;
  categoryId: string;
  by: string;
}

const idText = (value: JsonValue | undefined): string | undefined => (typeof value === 'number' || typeof value === 'bigint' ? String(value) : undefined);

export class ShownIds {
  private readonly shown = new Map<string, Shown>();
  private readonly sentAt = new WeakMap<Exchange, number>();

  constructor(private readonly petsUrl: string) {}

  /** Called as each answer comes (HttpClient's observe): when its request went, and what it showed. */
  observe(exchange: Exchange, nowMs = performance.now()): void {
    this.sentAt.set(exchange, nowMs - exchange.durationMs);
    const { request, response } = exchange;
    if (request.method !== 'GET' || response?.status !== 200) return;
    const path = request.url.split('?')[0]!;
    if (path === this.petsUrl) {
      const body = jsonBody(exchange);
      if (body.ok && Array.isArray(body.value)) for (const item of body.value) this.remember(item, nowMs, 'a listing');
      return;
    }
    if (!path.startsWith(`${this.petsUrl}/`)) return;
    const pet = jsonObject(exchange);
    const asked = path.slice(this.petsUrl.length + 1);
    // Only the animal under the id asked for, as written: an answer about another one shows nothing of that id.
    if (pet && idText(pet['id'] as JsonValue) === asked) this.remember(pet as JsonValue, nowMs, `GET /pets/${asked}`);
  }

  /**
   * What showed `id` holding an animal other than `created` (another name or categoryId) in an answer
   * that came before `create` was sent; undefined when nothing did, or when the create went unobserved.
   */
  heldBefore(create: Exchange, id: string, created: { name?: unknown; categoryId?: unknown }): string | undefined {
    const sent = this.sentAt.get(create);
    const shown = this.shown.get(id);
    if (sent === undefined || shown === undefined || shown.atMs >= sent) return undefined;
    const same = stringifyJson(shown.name ?? null) === stringifyJson(created.name ?? null) && shown.categoryId === String(created.categoryId);
    return same ? undefined : `was shown by ${shown.by} as ${stringifyJson(shown.name ?? null)} (categoryId ${shown.categoryId}) before this create was sent`;
  }

  private remember(item: JsonValue, atMs: number, by: string): void {
    if (!isJsonObject(item)) return;
    const id = idText(item['id']);
    // The first sighting is the earliest: later ones change nothing a create sent after it is judged by.
    if (id === undefined || this.shown.has(id)) return;
    this.shown.set(id, { atMs, name: item['name'], categoryId: String(item['categoryId']), by });
  }
}
