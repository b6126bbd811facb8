import { closeSync, openSync, writeSync } from 'node:fs';
import { jsonObject, type Exchange } from '../http/exchange.ts';
import { isInt, parseJson } from '../json/lossless.ts';
import type { CreatedAnimal } from '../checks/state.ts';
import type { SuiteConfig } from './config.ts';

/** One thing the run created on the target, as the trail file records it. */
export interface CreatedItem {
  kind: 'animal' | 'message';
  /** As the target answered it (an int64 in decimal for an animal); null when the answer gave none. */
  id: string | null;
  /** The animal's name, or the message's text, as answered (else as sent). */
  text: string | null;
  /** When the request was sent, ISO 8601. */
  requestedAt: string;
  url: string;
  /** Written, and no answer said what became of it (HttpClient's `unsettled`): the target may hold it; `text` is what was sent. */
  unconfirmed?: true;
}

function field(body: Record<string, unknown> | undefined, name: string): string | null {
  const value = body?.[name];
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint' ? String(value) : null;
}

function sentField(body: string | undefined, name: string): string | null {
  try {
    const sent = body === undefined ? undefined : parseJson(body);
    return sent && typeof sent === 'object' && !Array.isArray(sent) ? field(sent as Record<string, unknown>, name) : null;
  } catch {
    return null;
  }
}

/**
 * What an answered exchange created, if anything: a POST to the configured create-an-animal or
 * message URL that got a 2xx (every such answer says the target took the write, whatever the checks
 * make of its body).
 */
export function createdBy(exchange: Exchange, config: Pick<SuiteConfig, 'baseUrl' | 'messagesBaseUrl'>): CreatedItem | undefined {
  const { request, response } = exchange;
  if (!response || response.status < 200 || response.status > 299) return undefined;
  const kind = creationKind(request, config);
  if (!kind) return undefined;
  const body = jsonObject(exchange);
  const textField = TEXT_FIELD[kind];
  return {
    kind,
    id: field(body, 'id'),
    text: field(body, textField) ?? sentField(request.body, textField),
    requestedAt: new Date(Date.now() - exchange.durationMs).toISOString(),
    url: request.url,
  };
}

const TEXT_FIELD = { animal: 'name', message: 'message' } as const;

/** Whether a request is a POST to the configured create-an-animal or message URL, and which. */
function creationKind(request: { method: string; url: string }, config: Pick<SuiteConfig, 'baseUrl' | 'messagesBaseUrl'>): CreatedItem['kind'] | undefined {
  if (request.method !== 'POST') return undefined;
  const url = request.url.split('?')[0];
  return url === `${config.baseUrl}/v1/pets` ? 'animal' : config.messagesBaseUrl && url === `${config.messagesBaseUrl}/messages` ? 'message' : undefined;
}

/**
 * A create or message POST that was written and got no answer saying what became of it (lost with
 * its connection, timed out, cut inside its 2xx): the target may hold it, under what was sent.
 */
export function unsettledCreation(request: { method: string; url: string; body?: string | Uint8Array }, config: Pick<SuiteConfig, 'baseUrl' | 'messagesBaseUrl'>): CreatedItem | undefined {
  const kind = creationKind(request, config);
  if (!kind) return undefined;
  const body = typeof request.body === 'string' ? request.body : request.body && Buffer.from(request.body).toString('utf8');
  return { kind, id: null, text: sentField(body, TEXT_FIELD[kind]), requestedAt: new Date().toISOString(), url: request.url, unconfirmed: true };
}

/** The animal `item` (what `exchange` created) is, as its 201 showed it (id, name and categoryId all given). */
export function animalOf(item: CreatedItem, exchange: Exchange): CreatedAnimal | undefined {
  if (item.kind !== 'animal' || item.id === null) return undefined;
  const body = jsonObject(exchange);
  if (!isInt(body?.id) || typeof body.name !== 'string' || !isInt(body.categoryId)) return undefined;
  return { id: item.id, name: body.name, categoryId: String(body.categoryId) };
}

/**
 * The worker's trail: each creation appended to the trail file as one JSON line, written at once (in
 * append mode, so workers never interleave inside a line, and a run cut short keeps every line
 * written). The file is opened at the first creation and closed at the end of each scenario.
 */
export class Trail {
  private fd: number | undefined;

  constructor(private readonly file: string) {}

  record(item: CreatedItem): void {
    this.fd ??= openSync(this.file, 'a');
    const line = Buffer.from(`${JSON.stringify(item)}\n`);
    for (let written = 0; written < line.length; ) written += writeSync(this.fd, line, written);
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }
}
