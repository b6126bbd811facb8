/** src/contract/validator.ts against the schemas of spec/openapi.yaml. */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/load.ts';
import { createValidators, type Validators } from '../../src/contract/validator.ts';
import { parseJson } from '../../src/json/lossless.ts';

let validators: Validators;
beforeAll(async () => {
  validators = createValidators(await loadContract());
});

const validate = (schema: string, text: string): string[] => validators.validate(schema, parseJson(text));

describe('Pet', () => {
  it('passes id 9223372036854775807 (the int64 maximum)', () => {
    expect(validate('Pet', '{"id":9223372036854775807,"name":"Rex","categoryId":-9223372036854775808}')).toEqual([]);
  });

  it('fails id 9223372036854775808 (beyond int64)', () => {
    const problems = validate('Pet', '{"id":9223372036854775808,"name":"Rex","categoryId":1}');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^\/id .*int64/);
  });

  it('fails categoryId -9223372036854775809 (below int64)', () => {
    expect(validate('Pet', '{"id":1,"name":"Rex","categoryId":-9223372036854775809}').join()).toMatch(/\/categoryId .*int64/);
  });

  it('passes an extra field: schemas stay open', () => {
    expect(validate('Pet', '{"id":1,"name":"Rex","categoryId":1,"color":"brown","tags":[]}')).toEqual([]);
  });

  it('fails a missing id, a string categoryId, a fractional id, 1e400 and a status outside the enum', () => {
    expect(validate('Pet', '{"name":"Rex","categoryId":1}').join()).toMatch(/id/);
    expect(validate('Pet', '{"id":1,"name":"Rex","categoryId":"1"}').join()).toMatch(/categoryId/);
    expect(validate('Pet', '{"id":1.5,"name":"Rex","categoryId":1}').join()).toMatch(/\/id/);
    expect(validate('Pet', '{"id":1,"name":"Rex","categoryId":1e400}').join()).toMatch(/\/categoryId/);
    expect(validate('Pet', '{"id":1,"name":"Rex","categoryId":1,"status":"adopted"}').join()).toMatch(/\/status/);
  });

  it('fails id 1e19 (an integer beyond int64, written with an exponent)', () => {
    expect(validate('Pet', '{"id":1e19,"name":"Rex","categoryId":1}')).not.toEqual([]);
  });
});

describe('NewPet, Pets, Error, Message', () => {
  it('NewPet: passes without status, fails without name', () => {
    expect(validate('NewPet', '{"name":"","categoryId":0}')).toEqual([]);
    expect(validate('NewPet', '{"categoryId":0}').join()).toMatch(/name/);
  });

  it('Pets: names a bad item by its index and its 1-based position, for ajv and int64 problems alike', () => {
    const good = '{"id":1,"name":"a","categoryId":1}';
    expect(validate('Pets', `[${good},{"id":9223372036854775808,"name":"b","categoryId":1}]`)).toEqual([
      '/1/id (item 2 of 2) must be within the int64 range (got 9223372036854775808)',
    ]);
    expect(validate('Pets', `[${good},${good},{"id":3,"name":"c","categoryId":"3"}]`)).toEqual(['/2/categoryId (item 3 of 3) must be integer']);
    expect(validate('Pets', '{"id":1}')).toEqual(['/ must be array']);
  });

  it('Error: passes a full Error, fails one missing status', () => {
    expect(validate('Error', '{"code":"not_found","message":"no such animal","status":404}')).toEqual([]);
    expect(validate('Error', '{"code":"not_found","message":"no such animal"}').join()).toMatch(/status/);
  });

  it('Message: fails createdAt "nope" on the date-time format, passes a UTC timestamp', () => {
    const base = { id: 'm1', message: 'hi', status: 'queued' };
    expect(validators.validate('Message', { ...base, createdAt: '2026-11-22T10:00:00Z' })).toEqual([]);
    expect(validators.validate('Message', { ...base, createdAt: 'nope' })).toEqual(['/createdAt must match format "date-time"']);
  });

  it('throws on a schema the contract does not have', () => {
    expect(validators.has('Pet')).toBe(true);
    expect(validators.has('Order')).toBe(false);
    expect(() => validators.validate('Order', {})).toThrow(/no schema Order/);
  });
});
