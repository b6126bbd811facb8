/**
 * src/suite/shown-ids.ts: an id an answer showed holding an animal counts against a create only where
 * that answer came before the create was sent, and only for another animal than the one created.
 */
import { describe, expect, it } from 'vitest';
import { exchange, pet, raw } from '../../src/checks/exchanges.ts';
import { ShownIds } from '../../src/suite/shown-ids.ts';
import type { Exchange } from '../../src/http/exchange.ts';

const PETS = 'https://api.example.test/v1/pets';
const get = (path: string, body: unknown): Exchange => exchange(200, body as never, {}, { method: 'GET', url: `${PETS}${path}` });
/** A create whose request took `durationMs`, answered with `body`. */
const create = (body: unknown, durationMs = 10): Exchange => ({ ...exchange(201, body as never, {}, { method: 'POST', url: PETS }), durationMs });

describe('ShownIds', () => {
  it('names an id a GET by id showed holding another animal before the create was sent', () => {
    const shown = new ShownIds(PETS);
    shown.observe(get('/101', { id: 101, name: '', categoryId: 0 }), 1_000);
    const created = create(pet(101), 10);
    shown.observe(created, 1_050);
    expect(shown.heldBefore(created, '101', { name: 'pet 101', categoryId: 1 })).toBe('was shown by GET /pets/101 as "" (categoryId 0) before this create was sent');
  });

  it('names an id a listing showed, int64 exact', () => {
    const shown = new ShownIds(PETS);
    shown.observe(get('?limit=5', raw('[{"id":9223372036854775807,"name":"Bella","categoryId":2}]')), 1_000);
    const created = create(raw('{"id":9223372036854775807,"name":"Rex","categoryId":1}'));
    shown.observe(created, 2_000);
    expect(shown.heldBefore(created, '9223372036854775807', { name: 'Rex', categoryId: 1 })).toMatch(/^was shown by a listing as "Bella"/);
    expect(shown.heldBefore(created, '9223372036854775806', { name: 'Rex', categoryId: 1 })).toBeUndefined();
  });

  it('counts nothing shown after the create was sent (it may be the animal it made), nor the same animal, nor another id asked for', () => {
    const shown = new ShownIds(PETS);
    const created = create(pet(7), 100);
    // Sent at 900: a listing that came at 950 may already hold it.
    shown.observe(get('', [pet(7, { name: 'someone' })]), 950);
    shown.observe(created, 1_000);
    expect(shown.heldBefore(created, '7', pet(7))).toBeUndefined();

    const later = new ShownIds(PETS);
    later.observe(get('/8', pet(8)), 500);
    const again = create(pet(8));
    later.observe(again, 1_000);
    expect(later.heldBefore(again, '8', pet(8))).toBeUndefined();

    const other = new ShownIds(PETS);
    other.observe(get('/9', pet(10)), 500);
    const third = create(pet(9));
    other.observe(third, 1_000);
    expect(other.heldBefore(third, '9', pet(9))).toBeUndefined();
    // An answer to GET /pets/9 about animal 10 shows nothing of either id.
    expect(other.heldBefore(third, '10', pet(10, { name: 'x' }))).toBeUndefined();
  });

  it('says nothing of a create it never observed', () => {
    const shown = new ShownIds(PETS);
    shown.observe(get('/5', pet(5)), 100);
    expect(shown.heldBefore(create(pet(5, { name: 'x' })), '5', { name: 'x', categoryId: 1 })).toBeUndefined();
  });
});
