/**
 * The body of every success answer, whatever request it answered: a probe the suite sends to
 * observe what the spec leaves open (a field it does not name, a scheme in lower case, a `limit`
 * out of bounds) may be answered 2xx, and that answer still owes its operation's body. Judged under
 * the clause of the operation's own success row, on the schema it names.
 */
import type { Exchange } from '../http/exchange.ts';
import { isInt64 } from '../json/lossless.ts';
import { schemaVerdict } from './common.ts';
import { isCreatedAtFormat } from './messages.ts';
import type { CheckName } from './registry.ts';
import { NOT_APPLICABLE, type JudgeEnv, type Verdict } from './types.ts';

export interface SuccessBody {
  clause: CheckName;
  schema: string;
  ignore?: (problem: string) => boolean;
}

/** §4.1 "200 | `Pets`", §4.2 "201 | `Pet`", §4.3 "200 | `Pet`", §4.5 "Successful response body". */
const SUCCESS_BODIES: Readonly<Record<string, SuccessBody>> = {
  listPets: { clause: 'list.200-pets', schema: 'Pets' },
  createPet: { clause: 'create.201-pet', schema: 'Pet' },
  getPet: { clause: 'get.200-pet', schema: 'Pet' },
  sendMessage: { clause: 'messages.accepted', schema: 'Message', ignore: isCreatedAtFormat },
};

/**
 * What a success answer of this exchange's operation owes, if anything: its clause and schema. Not
 * a HEAD (no body), and for getPet only a petId that is an int64: `/v1/pets/abc` may reach another
 * route of the server, which answers for that route.
 */
export function successBodyOf(exchange: Exchange): SuccessBody | undefined {
  const shape = exchange.operationId === undefined ? undefined : SUCCESS_BODIES[exchange.operationId];
  if (!shape || exchange.request.method === 'HEAD') return undefined;
  if (exchange.operationId === 'getPet' && !isInt64Text(lastSegment(exchange.request.url))) return undefined;
  return shape;
}

/** A 2xx answer's body against the schema its operation names; any other answer is n/a here. */
export function judgeSuccessBody(exchange: Exchange, env: JudgeEnv, shape: SuccessBody): Verdict {
  const status = exchange.response?.status ?? 0;
  if (status < 200 || status > 299) return NOT_APPLICABLE;
  return schemaVerdict(exchange, env, shape.schema, shape.ignore);
}

function lastSegment(url: string): string {
  const path = new URL(url).pathname;
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Decimal digits, a minus sign at most, within int64. */
function isInt64Text(text: string): boolean {
  return /^-?\d{1,19}$/.test(text) && isInt64(BigInt(text));
}
