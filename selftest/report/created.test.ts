import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CREATED_FILE, TRAIL_FILE, writeCreated, type CreatedList } from '../../src/report/created.ts';
import { unsettledCreation, type CreatedItem } from '../../src/suite/trail.ts';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const config = { baseUrl: 'http://127.0.0.1:1', messagesBaseUrl: 'http://127.0.0.1:2' };

describe('created.json', () => {
  it('lists a create no answer confirmed apart, as unconfirmed, under the name it sent, and counts it apart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'created-'));
    dirs.push(dir);
    const lost = unsettledCreation({ method: 'POST', url: `${config.baseUrl}/v1/pets`, body: '{"name":"Rex","categoryId":1}' }, config);
    const taken: CreatedItem = { kind: 'animal', id: '7', text: 'Max', requestedAt: '2026-12-07T10:00:00.000Z', url: `${config.baseUrl}/v1/pets` };
    expect(lost).toMatchObject({ kind: 'animal', id: null, text: 'Rex', unconfirmed: true });
    expect(unsettledCreation({ method: 'GET', url: `${config.baseUrl}/v1/pets` }, config), 'a GET creates nothing').toBeUndefined();
    expect(unsettledCreation({ method: 'POST', url: `${config.messagesBaseUrl}/messages`, body: Buffer.from('{"message":"hi"}') }, config)).toMatchObject({ kind: 'message', text: 'hi' });
    await writeFile(join(dir, TRAIL_FILE), `${JSON.stringify(taken)}\n${JSON.stringify(lost)}\n`);
    const counts = await writeCreated(dir, { target: { ...config, env: 'production' }, seed: 1, startedAt: '2026-12-07T10:00:00.000Z' }, []);
    expect(counts).toMatchObject({ animals: 1, messages: 0, noId: 0, unconfirmed: 1 });
    const list = JSON.parse(await readFile(join(dir, CREATED_FILE), 'utf8')) as CreatedList;
    expect(list.animals).toEqual([{ id: '7', name: 'Max', requestedAt: taken.requestedAt }]);
    expect(list.unconfirmed).toEqual([{ kind: 'animal', text: 'Rex', requestedAt: lost!.requestedAt }]);
  });
});
