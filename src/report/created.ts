import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { CreatedItem } from '../suite/trail.ts';
import { redactText } from '../secrets.ts';

/** The file, in the reports folder, that lists what a run created on the target. */
export const CREATED_FILE = 'created.json';
/** Where the workers append their creations while the run lasts. */
export const TRAIL_FILE = '.created.jsonl';

export interface CreatedList {
  target: { baseUrl: string; messagesBaseUrl: string; env: string };
  seed: number;
  startedAt: string;
  animals: { id: string | null; name: string | null; requestedAt: string }[];
  messages: { id: string | null; message: string | null; requestedAt: string }[];
  /**
   * Creates and messages written to the target that no answer confirmed or refused (lost with their
   * connection, timed out): it may hold them, under the name or text sent. Where a lost one was sent
   * again, the target may hold both.
   */
  unconfirmed: { kind: 'animal' | 'message'; text: string | null; requestedAt: string }[];
}

/**
 * Gathers the workers' trail into created.json (every string redacted), removes the trail, and
 * returns the counts; a run that created nothing still writes the file, with empty lists.
 */
export async function writeCreated(
  dir: string,
  head: Omit<CreatedList, 'animals' | 'messages' | 'unconfirmed'>,
  secrets: readonly string[],
): Promise<{ path: string; animals: number; messages: number; noId: number; unconfirmed: number }> {
  const trail = join(dir, TRAIL_FILE);
  const text = await readFile(trail, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  const items = text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as CreatedItem)
    .sort((a, b) => a.requestedAt.localeCompare(b.requestedAt));
  const hide = (value: string | null) => (value === null ? null : redactText(value, secrets));
  const confirmed = items.filter((item) => !item.unconfirmed);
  const list: CreatedList = {
    ...head,
    animals: confirmed.filter((item) => item.kind === 'animal').map((item) => ({ id: hide(item.id), name: hide(item.text), requestedAt: item.requestedAt })),
    messages: confirmed.filter((item) => item.kind === 'message').map((item) => ({ id: hide(item.id), message: hide(item.text), requestedAt: item.requestedAt })),
    unconfirmed: items.filter((item) => item.unconfirmed).map((item) => ({ kind: item.kind, text: hide(item.text), requestedAt: item.requestedAt })),
  };
  const path = resolve(dir, CREATED_FILE);
  await keepEarlierList(path);
  await writeFile(path, `${JSON.stringify(list, null, 2)}\n`, 'utf8');
  await rm(trail, { force: true });
  const noId = [...list.animals, ...list.messages].filter((item) => item.id === null).length;
  return { path, animals: list.animals.length, messages: list.messages.length, noId, unconfirmed: list.unconfirmed.length };
}

/**
 * An earlier run's created.json that lists anything is a clean-up list still owed: it is kept, as
 * created-<its startedAt>.json, rather than overwritten (a --replay run after a full one, say).
 */
async function keepEarlierList(path: string): Promise<void> {
  const text = await readFile(path, 'utf8').catch(() => undefined);
  if (text === undefined) return;
  let earlier: Partial<CreatedList>;
  try {
    earlier = JSON.parse(text) as Partial<CreatedList>;
  } catch {
    earlier = {};
  }
  if (!earlier.animals?.length && !earlier.messages?.length && !earlier.unconfirmed?.length && earlier.startedAt !== undefined) return;
  const stamp = (earlier.startedAt ?? new Date().toISOString()).replace(/[^0-9TZ]/g, '');
  await rename(path, path.replace(/\.json$/, `-${stamp}.json`));
}
