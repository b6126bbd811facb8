import fc from 'fast-check';
import { limitBounds, operation, parameterSchema, type Contract } from '../src/contract/model.ts';

export { limitBounds };

export interface QueryInput {
  /** The query string as sent, e.g. `limit=5&status=sold`; empty for none. */
  text: string;
  limit?: number;
  status?: string;
}

export interface InvalidQuery {
  rule: string;
  text: string;
}

function statusEnum(contract: Contract): string[] {
  return (parameterSchema(operation(contract, 'listPets'), 'status').enum ?? []).map(String);
}

/** Valid limit values, both bounds drawn often. */
export function validLimit(contract: Contract): fc.Arbitrary<number> {
  const { min, max } = limitBounds(contract);
  return fc.oneof(fc.constantFrom(min, max), fc.integer({ min, max }));
}

/** Valid combinations of limit and status, each possibly absent, in either order (a parser may read only the first). */
export function validQuery(contract: Contract): fc.Arbitrary<QueryInput> {
  return fc
    .tuple(fc.record({ limit: validLimit(contract), status: fc.constantFrom(...statusEnum(contract)) }, { requiredKeys: [] }), fc.boolean())
    .map(([{ limit, status }, statusFirst]) => {
      const parts = [limit === undefined ? '' : `limit=${limit}`, status === undefined ? '' : `status=${status}`].filter(Boolean);
      if (statusFirst) parts.reverse();
      const input: QueryInput = { text: parts.join('&') };
      if (limit !== undefined) input.limit = limit;
      if (status !== undefined) input.status = status;
      return input;
    });
}

/** Query strings the parameter schemas rule out, each naming the rule it breaks. */
export function invalidQuery(contract: Contract): fc.Arbitrary<InvalidQuery> {
  return fc.oneof(...invalidQueryCases(contract));
}

/** The invalid query rules one by one, so a suite visits each. */
export function invalidQueryCases(contract: Contract): fc.Arbitrary<InvalidQuery>[] {
  const { min, max } = limitBounds(contract);
  const limit = (rule: string, value: string): InvalidQuery => ({ rule, text: `limit=${encodeURIComponent(value)}` });
  const fixed: [string, string][] = [
    [`limit below the minimum ${min}`, String(min - 1)],
    [`limit above the maximum ${max}`, String(max + 1)],
    ['limit negative', '-1'],
    ['limit not an integer', '1.5'],
    ['limit not a number', 'abc'],
    ['limit empty', ''],
    // Where integer parsers overflow (int32, int64, beyond both) or read other spellings of a number.
    ['limit beyond int32 (2^31)', '2147483648'],
    ['limit beyond int64 (2^63)', '9223372036854775808'],
    ['limit of 20 digits', '99999999999999999999'],
    ['limit with a plus sign', '+5'],
    ['limit in exponent notation', '1e2'],
    // Validated as the digits before the "e", applied as the number: 1,000 animals.
    ['limit in exponent notation, past the maximum', '1e3'],
    ['limit with a leading space', ' 5'],
  ];
  // A parameter given twice: frameworks hand the handler a list, or validate one value and use the other.
  const repeated: InvalidQuery[] = [
    { rule: `limit given twice (${min}, then ${max + 400})`, text: `limit=${min}&limit=${max + 400}` },
    { rule: `limit given twice (${max + 400}, then ${min})`, text: `limit=${max + 400}&limit=${min}` },
  ];
  const limits: fc.Arbitrary<InvalidQuery>[] = [
    ...fixed.map(([rule, value]) => fc.constant(limit(rule, value))),
    ...repeated.map((query) => fc.constant(query)),
    fc.integer({ min: max + 1, max: 1_000_000 }).map((n) => limit(`limit above the maximum ${max}`, String(n))),
    fc.integer({ min: -1_000_000, max: min - 1 }).map((n) => limit(`limit below the minimum ${min}`, String(n))),
  ];
  const allowed = statusEnum(contract);
  const statuses = [...allowed.flatMap((s) => [s.toUpperCase(), s.charAt(0).toUpperCase() + s.slice(1)]), 'unknown', '']
    .filter((value) => !allowed.includes(value))
    .map((value) => fc.constant({ rule: `status outside the enum (${JSON.stringify(value)})`, text: `status=${encodeURIComponent(value)}` }));
  const combined = fc
    .tuple(fc.oneof(...limits), fc.constantFrom(...allowed))
    .map(([bad, status]) => ({ rule: `${bad.rule}, with a valid status`, text: `${bad.text}&status=${status}` }));
  const twice = allowed.length > 1 ? [fc.constant({ rule: `status given twice (${allowed[0]}, then ${allowed[1]})`, text: `status=${allowed[0]}&status=${allowed[1]}` })] : [];
  return [...limits, ...statuses, ...twice, combined];
}
