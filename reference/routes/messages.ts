// POST {messages_base_url}/messages: the quickstart message operation.

import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { authenticate } from '../auth.ts';
import type { Ctx, Handler } from '../context.ts';
import { allowed, fault, switches, type Deviation } from '../deviation.ts';
import { isJsonContentType, readBodyOrReply, sendError, sendJson } from '../http.ts';
import { field, isJsonObject, parseJsonBody, type ParsedJson } from '../json.ts';
import { CREATE_PET_DEVIATIONS } from './create-pet.ts';

/** A default run's --runs: the matrix's 10 send about 40 messages, too few to reach a 51st (a default run sends 70 to 120). */
const DEFAULT_RUNS = ['--runs', '25'] as const;

/** The deviations switched in this module (reference/deviations.ts gathers them into the catalogue). */
export const MESSAGES_DEVIATIONS = [
  fault('fault-message-non-string-empty-202', 'messages.accepted', 'A message of another JSON type than string (a number, null, an object) is accepted: 202 {}.'),
  fault('fault-message-json5', 'messages.invalid-400', 'The body is read as JSON5 would be: comments are dropped and unquoted member names read, so /* c */{"message":"hi"} and {message:"hi"} are accepted.'),
  fault('fault-message-200-empty', 'messages.accepted', 'A successful POST /messages answers 200 with body {}.'),
  fault('fault-message-status-sent', 'messages.status-queued', 'The message status is "sent" instead of "queued".'),
  fault('fault-message-created-at-offset', 'messages.created-at', 'createdAt uses a +02:00 offset (correct instant, not UTC), e.g. 2026-11-22T12:00:00+02:00.'),
  fault('fault-message-created-at-not-iso', 'messages.created-at', 'createdAt is new Date().toString() (not ISO 8601).'),
  fault('fault-message-same-id', 'messages.id-unique', 'Every accepted message gets the id "msg_1", as a handler that returns a constant placeholder would.'),
  fault('fault-message-id-wraps-50', 'messages.id-unique', 'Message ids come from a counter modulo 50 (msg_0 to msg_49): the 51st accepted message gets the id of the 1st, whatever its text, as a small ring of slots would.', DEFAULT_RUNS),
  fault('fault-message-status-sent-for-charset', 'messages.status-queued', 'A message posted under a Content-Type other than exactly application/json (application/json; charset=utf-8, Application/JSON) gets status "sent"; one under application/json gets "queued".'),
  fault('fault-message-created-at-offset-for-charset', 'messages.created-at', 'A message posted under a Content-Type other than exactly application/json gets createdAt with a +01:00 offset (the right instant, not UTC); one under application/json gets a UTC createdAt.'),
  fault('fault-message-max-50', 'messages.accepted', 'POST /messages refuses (400 Error) a message longer than 50 characters, core texts of up to 100 printable ASCII characters included.'),
  fault('fault-message-echo-trimmed', 'messages.echo', 'The echoed message is trimmed.'),
  fault('fault-message-accepts-invalid-json', 'messages.invalid-400', 'A body that is not valid JSON is answered as success (message echoes the raw body text).'),
  fault('fault-message-lenient-shape', 'messages.invalid-400', 'A body that is an array is taken as its first item, and "text" is read where "message" is missing: [{"message":"hi"}] and {"text":"hi"} get 202.'),
  fault('fault-message-accepts-missing-message', 'messages.invalid-400', 'An object without "message" is answered as success (message "").'),
  fault('fault-message-content-type-case-sensitive', 'messages.accepted', 'POST /messages answers 400 unless the media type of Content-Type is application/json in lower case (Application/JSON is refused), as a byte-for-byte comparison does.'),
  fault('fault-message-rejects-json-charset', 'messages.accepted', 'POST /messages answers 400 unless Content-Type is exactly application/json (a charset parameter is refused).'),
  fault('fault-message-accepts-jsonish-content-type', 'messages.invalid-400', 'The body is read as JSON under any Content-Type that mentions json (/json/i, as many frameworks match it): text/json, application/x-json, application/vnd.api+json.'),
  fault('fault-message-trailing-data-accepted', 'messages.invalid-400', 'A POST /messages body is read as its first JSON value and whatever follows it ignored (Go\'s json.Decoder.Decode): {"message":"hi"} x is taken.'),
  fault('fault-message-accepts-form', 'messages.invalid-400', 'POST /messages also reads an application/x-www-form-urlencoded body (message=hi), as a framework\'s default body parsers do.'),
  fault('fault-message-accepts-xml', 'messages.invalid-400', 'POST /messages also reads an application/xml body (<message>hi</message>), as a framework with an XML input formatter does.'),
  fault('fault-message-charset-utf16', 'messages.not-utf8', 'A POST /messages body labelled application/json; charset=utf-16 is read as UTF-16, as body-parser does (RFC 8259 §11: the parameter has no effect on compliant recipients).'),
  fault('fault-message-lenient-utf8', 'messages.not-utf8', 'A POST /messages body is decoded leniently: bytes that are not UTF-8 become U+FFFD (Go\'s encoding/json, Express\'s body-parser) and the message is taken.'),
  fault('fault-message-accepts-wrong-content-type', 'messages.invalid-400', 'The body is parsed as JSON whatever the Content-Type (including none).'),
  allowed('allowed-messages-200', 'A successful POST /messages answers 200 (full body).'),
  allowed('allowed-messages-201', 'A successful POST /messages answers 201 (full body).'),
  allowed('allowed-messages-ascii-only', 'POST /messages refuses (400 Error) a message other than 1 to 100 printable ASCII characters in words one space apart, as an SMS gateway might.'),
  allowed('allowed-message-max-4096', 'POST /messages refuses an empty message (400 Error) and one longer than 4096 characters (413 Error).'),
  allowed('allowed-created-at-basic', 'createdAt is in the ISO 8601 basic format, e.g. 20261122T141509Z (§4.5 asks for "ISO 8601 UTC timestamp", not the extended format).'),
  allowed('allowed-created-at-ordinal', 'createdAt names its day as an ISO 8601 ordinal date, e.g. 2026-326T14:15:09Z (year and day of the year).'),
  allowed('allowed-created-at-hour', 'createdAt is given to the hour only, e.g. 2026-11-22T14Z (ISO 8601 reduced precision).'),
  allowed('allowed-messages-uuid-ids', 'Message ids are UUIDs (crypto.randomUUID()).'),
  allowed('allowed-message-repeat-is-earlier', 'A text sent again is taken as the message sent before (an idempotent submission): the answer is that message, its id and createdAt, its status moved on to "sent" (§4.5 says nothing of duplicates; "queued" is the initial value).'),
  fault('fault-seq-message-buffer', 'messages.echo', 'After a message refused with 400, the next accepted message echoes the text accepted before the refusal (a buffer the refusal path does not reset).'),
] as const satisfies readonly Deviation[];

const on = switches(MESSAGES_DEVIATIONS, CREATE_PET_DEVIATIONS);

function messageId(ctx: Ctx): string {
  if (on(ctx, 'fault-message-same-id')) return 'msg_1';
  if (on(ctx, 'fault-message-id-wraps-50')) return `msg_${ctx.memory.messagesAccepted++ % 50}`;
  return on(ctx, 'allowed-messages-uuid-ids') ? randomUUID() : `msg_${randomBytes(12).toString('hex')}`;
}

/** `now` written with a +0`hours`:00 offset: same instant, not UTC (fault-message-created-at-offset, -for-charset). */
function withOffset(now: Date, hours: number): string {
  const shifted = new Date(now.getTime() + hours * 3600_000).toISOString(); // 2026-11-22T10:00:00.000Z
  return `${shifted.slice(0, 19)}+0${hours}:00`;
}

/** Whether the request's Content-Type is other than exactly application/json (the -for-charset faults). */
const spelledOtherwise = (req: IncomingMessage) => req.headers['content-type'] !== 'application/json';

function createdAt(ctx: Ctx, req: IncomingMessage): string {
  const now = new Date();
  if (on(ctx, 'fault-message-created-at-offset')) return withOffset(now, 2);
  if (on(ctx, 'fault-message-created-at-offset-for-charset') && spelledOtherwise(req)) return withOffset(now, 1);
  if (on(ctx, 'fault-message-created-at-not-iso')) return now.toString();
  if (on(ctx, 'allowed-created-at-basic')) return now.toISOString().replace(/\.\d+/, '').replace(/[-:]/g, '');
  if (on(ctx, 'allowed-created-at-hour')) return `${now.toISOString().slice(0, 13)}Z`;
  if (on(ctx, 'allowed-created-at-ordinal')) {
    const dayOfYear = Math.floor((now.getTime() - Date.UTC(now.getUTCFullYear(), 0, 1)) / 86_400_000) + 1;
    return `${now.getUTCFullYear()}-${String(dayOfYear).padStart(3, '0')}T${now.toISOString().slice(11, 19)}Z`;
  }
  return now.toISOString();
}

function successStatus(ctx: Ctx): number {
  if (on(ctx, 'allowed-messages-200')) return 200;
  if (on(ctx, 'allowed-messages-201')) return 201;
  return 202;
}

/**
 * fault-seq-message-buffer: the text is read into a buffer the refusal path does not reset, so the
 * message accepted next after a refusal echoes the text accepted before it.
 */
function echoed(ctx: Ctx, message: string, refusedBefore: boolean): string {
  ctx.memory.messageRefused = false;
  if (!on(ctx, 'fault-seq-message-buffer')) return message;
  const text = refusedBefore && ctx.memory.lastMessage !== undefined ? ctx.memory.lastMessage : message;
  ctx.memory.lastMessage = message;
  return text;
}

/** fault-message-accepts-form, fault-message-accepts-xml: the body parser a framework picks by Content-Type, besides JSON's. */
function otherBodyParser(req: IncomingMessage, ctx: Ctx): 'form' | 'xml' | undefined {
  const mediaType = (req.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (mediaType === 'application/x-www-form-urlencoded' && on(ctx, 'fault-message-accepts-form')) return 'form';
  if (mediaType === 'application/xml' && on(ctx, 'fault-message-accepts-xml')) return 'xml';
  return undefined;
}

function otherBody(parser: 'form' | 'xml', raw: Buffer): { ok: true; value: ParsedJson } | { ok: false; reason: string } {
  const text = raw.toString('utf8');
  const message = parser === 'form' ? new URLSearchParams(text).get('message') : /<message>([^<]*)<\/message>/.exec(text)?.[1]?.replace(/&(lt|gt|quot|apos|amp);/g, (_, name: string) => XML_ENTITIES[name]!);
  return message === null || message === undefined ? { ok: false, reason: `no message field in the ${parser} body` } : { ok: true, value: { message } };
}

/** fault-message-json5: comments dropped and bare member names quoted. */
function asJson5Would(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/([{,]\s*)([A-Za-z_]\w*)\s*:/g, '$1"$2":');
}

const XML_ENTITIES: Record<string, string> = { lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' };

export const postMessage: Handler = async (req, res, ctx) => {
  if (!authenticate(req, res, ctx, 'messages')) return;
  // Every answer below but the success is a refusal of this request's body.
  const refusedBefore = ctx.memory.messageRefused;
  ctx.memory.messageRefused = true;
  const jsonish = on(ctx, 'fault-message-accepts-jsonish-content-type') && /json/i.test(req.headers['content-type'] ?? '');
  const other = otherBodyParser(req, ctx);
  if (!isJsonContentType(req, on(ctx, 'fault-message-rejects-json-charset'), on(ctx, 'fault-message-content-type-case-sensitive')) && !jsonish && !other && !on(ctx, 'fault-message-accepts-wrong-content-type')) {
    sendError(res, ctx, 400, 'invalid_content_type', `Content-Type must be application/json, got ${JSON.stringify(req.headers['content-type'] ?? '(none)')}`);
    return;
  }
  const read = await readBodyOrReply(req, res, ctx);
  if (read === undefined) return;
  const raw = on(ctx, 'fault-message-json5') ? Buffer.from(asJson5Would(read.toString('utf8'))) : read;

  let message: string;
  const parsed = other ? otherBody(other, raw) : parseJsonBody(raw, on(ctx, 'fault-message-trailing-data-accepted'), on(ctx, 'fault-message-lenient-utf8'), on(ctx, 'fault-message-charset-utf16') && /charset="?utf-16/i.test(req.headers['content-type'] ?? '') ? 'utf-16' : 'utf-8');
  if (!parsed.ok) {
    if (!on(ctx, 'fault-message-accepts-invalid-json')) {
      sendError(res, ctx, 400, 'invalid_json', raw.length === 0 ? 'request body is required' : parsed.reason);
      return;
    }
    message = raw.toString('utf8');
  } else {
    const body = on(ctx, 'fault-message-lenient-shape') && Array.isArray(parsed.value) ? (parsed.value[0] ?? parsed.value) : parsed.value;
    if (!isJsonObject(body)) {
      sendError(res, ctx, 400, 'invalid_message', 'request body must be a JSON object with a "message" string');
      return;
    }
    const value = field(body, 'message') ?? (on(ctx, 'fault-message-lenient-shape') ? field(body, 'text') : undefined);
    if (value === undefined && on(ctx, 'fault-message-accepts-missing-message')) {
      message = '';
    } else if (value === undefined) {
      sendError(res, ctx, 400, 'invalid_message', '"message" is required');
      return;
    } else if (typeof value !== 'string') {
      if (on(ctx, 'fault-message-non-string-empty-202')) sendJson(res, ctx, 202, {});
      else sendError(res, ctx, 400, 'invalid_message', '"message" must be a string');
      return;
    } else if (on(ctx, 'fault-message-max-50') && [...value].length > 50) {
      sendError(res, ctx, 400, 'invalid_message', '"message" must be at most 50 characters');
      return;
    } else if (on(ctx, 'allowed-messages-ascii-only') && !(/^[\x21-\x7e]+(?: [\x21-\x7e]+)*$/.test(value) && value.length <= 100)) {
      sendError(res, ctx, 400, 'unsupported_characters', '"message" must be 1 to 100 printable ASCII characters, words one space apart');
      return;
    } else if (on(ctx, 'allowed-message-max-4096') && (value === '' || [...value].length > 4096)) {
      if (value === '') sendError(res, ctx, 400, 'invalid_message', '"message" must not be empty');
      else sendError(res, ctx, 413, 'payload_too_large', '"message" must be at most 4096 characters');
      return;
    } else {
      message = value;
    }
  }

  if (on(ctx, 'fault-message-200-empty')) {
    sendJson(res, ctx, 200, {});
    return;
  }
  const earlier = on(ctx, 'allowed-message-repeat-is-earlier') ? SENT_BEFORE.get(ctx)?.get(message) : undefined;
  if (earlier) {
    sendJson(res, ctx, successStatus(ctx), { ...earlier, status: 'sent' });
    return;
  }
  const answer = {
    id: messageId(ctx),
    message: echoed(ctx, on(ctx, 'fault-message-echo-trimmed') ? message.trim() : on(ctx, 'allowed-nfc-normalized') ? message.normalize('NFC') : message, refusedBefore),
    status: on(ctx, 'fault-message-status-sent') || (on(ctx, 'fault-message-status-sent-for-charset') && spelledOtherwise(req)) ? 'sent' : 'queued',
    createdAt: createdAt(ctx, req),
  };
  if (on(ctx, 'allowed-message-repeat-is-earlier')) {
    if (!SENT_BEFORE.has(ctx)) SENT_BEFORE.set(ctx, new Map());
    SENT_BEFORE.get(ctx)!.set(message, answer);
  }
  sendJson(res, ctx, successStatus(ctx), answer);
};

/** allowed-message-repeat-is-earlier: per server, each text's first answer. */
const SENT_BEFORE = new WeakMap<Ctx, Map<string, Record<string, unknown>>>();
