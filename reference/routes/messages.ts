// POST {messages_base_url}/messages: the quickstart message operation.

import { randomBytes, randomUUID } from 'node:crypto';
import { authenticate } from '../auth.ts';
import type { Ctx, Handler } from '../context.ts';
import { isJsonContentType, readBodyOrReply, sendError, sendJson } from '../http.ts';
import { field, isJsonObject, parseJsonBody } from '../json.ts';

function messageId(ctx: Ctx): string {
  if (ctx.dev.has('fault-message-same-id')) return 'msg_1';
  return ctx.dev.has('allowed-messages-uuid-ids') ? randomUUID() : `msg_${randomBytes(12).toString('hex')}`;
}

/** `now` written with a +02:00 offset: same instant, not UTC (fault-message-created-at-offset). */
function withPlusTwo(now: Date): string {
  const shifted = new Date(now.getTime() + 2 * 3600_000).toISOString(); // 2026-11-22T10:00:00.000Z
  return `${shifted.slice(0, 19)}+02:00`;
}

function createdAt(ctx: Ctx): string {
  const now = new Date();
  if (ctx.dev.has('fault-message-created-at-offset')) return withPlusTwo(now);
  if (ctx.dev.has('fault-message-created-at-not-iso')) return now.toString();
  if (ctx.dev.has('allowed-created-at-basic')) return now.toISOString().replace(/\.\d+/, '').replace(/[-:]/g, '');
  return now.toISOString();
}

function successStatus(ctx: Ctx): number {
  if (ctx.dev.has('allowed-messages-200')) return 200;
  if (ctx.dev.has('allowed-messages-201')) return 201;
  return 202;
}

/**
 * fault-seq-message-buffer: the text is read into a buffer the refusal path does not reset, so the
 * message accepted next after a refusal echoes the text accepted before it.
 */
function echoed(ctx: Ctx, message: string, refusedBefore: boolean): string {
  ctx.memory.messageRefused = false;
  if (!ctx.dev.has('fault-seq-message-buffer')) return message;
  const text = refusedBefore && ctx.memory.lastMessage !== undefined ? ctx.memory.lastMessage : message;
  ctx.memory.lastMessage = message;
  return text;
}

export const postMessage: Handler = async (req, res, ctx) => {
  if (!authenticate(req, res, ctx, 'messages')) return;
  // Every answer below but the success is a refusal of this request's body.
  const refusedBefore = ctx.memory.messageRefused;
  ctx.memory.messageRefused = true;
  const jsonish = ctx.dev.has('fault-message-accepts-jsonish-content-type') && /json/i.test(req.headers['content-type'] ?? '');
  if (!isJsonContentType(req, ctx.dev.has('fault-message-rejects-json-charset')) && !jsonish && !ctx.dev.has('fault-message-accepts-wrong-content-type')) {
    sendError(res, ctx, 400, 'invalid_content_type', `Content-Type must be application/json, got ${JSON.stringify(req.headers['content-type'] ?? '(none)')}`);
    return;
  }
  const raw = await readBodyOrReply(req, res, ctx);
  if (raw === undefined) return;

  let message: string;
  const parsed = parseJsonBody(raw);
  if (!parsed.ok) {
    if (!ctx.dev.has('fault-message-accepts-invalid-json')) {
      sendError(res, ctx, 400, 'invalid_json', raw.length === 0 ? 'request body is required' : parsed.reason);
      return;
    }
    message = raw.toString('utf8');
  } else {
    const body = parsed.value;
    if (!isJsonObject(body)) {
      sendError(res, ctx, 400, 'invalid_message', 'request body must be a JSON object with a "message" string');
      return;
    }
    const value = field(body, 'message');
    if (value === undefined && ctx.dev.has('fault-message-accepts-missing-message')) {
      message = '';
    } else if (value === undefined) {
      sendError(res, ctx, 400, 'invalid_message', '"message" is required');
      return;
    } else if (typeof value !== 'string') {
      sendError(res, ctx, 400, 'invalid_message', '"message" must be a string');
      return;
    } else if (ctx.dev.has('fault-message-max-50') && [...value].length > 50) {
      sendError(res, ctx, 400, 'invalid_message', '"message" must be at most 50 characters');
      return;
    } else if (ctx.dev.has('allowed-messages-ascii-only') && !(/^[\x21-\x7e]+(?: [\x21-\x7e]+)*$/.test(value) && value.length <= 100)) {
      sendError(res, ctx, 400, 'unsupported_characters', '"message" must be 1 to 100 printable ASCII characters, words one space apart');
      return;
    } else if (ctx.dev.has('allowed-message-max-4096') && (value === '' || [...value].length > 4096)) {
      if (value === '') sendError(res, ctx, 400, 'invalid_message', '"message" must not be empty');
      else sendError(res, ctx, 413, 'payload_too_large', '"message" must be at most 4096 characters');
      return;
    } else {
      message = value;
    }
  }

  if (ctx.dev.has('fault-message-200-empty')) {
    sendJson(res, ctx, 200, {});
    return;
  }
  sendJson(res, ctx, successStatus(ctx), {
    id: messageId(ctx),
    message: echoed(ctx, ctx.dev.has('fault-message-echo-trimmed') ? message.trim() : ctx.dev.has('allowed-nfc-normalized') ? message.normalize('NFC') : message, refusedBefore),
    status: ctx.dev.has('fault-message-status-sent') ? 'sent' : 'queued',
    createdAt: createdAt(ctx),
  });
};
