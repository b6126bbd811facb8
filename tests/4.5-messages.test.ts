import { describe } from 'vitest';
import { EDGE_MESSAGES, invalidMessageCases, JSON_SPELLED_OTHERWISE, messageEdge, newMessage, notUtf8MessageCases, type InvalidMessageRequest } from '../generators/index.ts';
import { stringifyJson } from '../src/json/lossless.ts';
import { scenario, type Judgements } from '../src/suite/scenario.ts';

describe('§4.5 Quickstart message operation: POST {messages_base_url}/messages', () => {
  scenario(
    'every valid message gives 2xx with a string id of its own, the echoed text, status queued and a UTC createdAt (or 400 for a text the spec does not guarantee)',
    {
      checks: ['messages.accepted', 'messages.id-unique', 'messages.echo', 'messages.status-queued', 'messages.created-at', 'messages.created-at-recent', 'messages.success-status', 'messages.text-constraints'],
      writes: true,
      messages: true,
      shard: 'inputs',
    },
    async (s) => {
      await s.property(
        'valid messages',
        newMessage(s.contract),
        {
          send: async (input) => {
            const sentAt = new Date();
            return { sentAt, exchange: await s.send('sendMessage', { body: stringifyJson(input) }) };
          },
          receive: (input, { sentAt, exchange }) => {
            const refusable = messageEdge(input.message);
            const judgements: Judgements = {
              'messages.accepted': { refusable },
              'messages.echo': { text: input.message },
              'messages.id-unique': { text: input.message },
              'messages.text-constraints': { text: input.message },
              'messages.status-queued': {},
              'messages.created-at': {},
              'messages.created-at-recent': { sentAt },
              'messages.success-status': {},
            };
            if (refusable) judgements['messages.text-constraints'] = { text: input.message, refusable };
            s.require(exchange, judgements);
          },
        },
        { examples: EDGE_MESSAGES },
      );
      // status-queued, created-at and id-unique judge these too, as every 2xx of sendMessage (COMMON_CHECKS).
      for (const contentType of JSON_SPELLED_OTHERWISE) {
        const text = 'Is Rex still available?';
        s.verify(await s.send('sendMessage', { body: stringifyJson({ message: text }), contentType }), { 'messages.accepted': {}, 'messages.echo': { text } });
      }
    },
  );

  scenario(
    'invalid JSON, a missing message or another content type give 400; a message of another type or a body that is not UTF-8 is refused',
    { checks: ['messages.invalid-400', 'messages.non-string', 'messages.not-utf8', 'errors.shape', 'errors.status-field', 'errors.no-5xx'], writes: true, messages: true, shard: 'inputs' },
    async (s) => {
      const invalid: InvalidMessageRequest[] = [...invalidMessageCases(s.contract), ...notUtf8MessageCases()];
      await s.forEach(invalid, (rule) =>
        s.property(
          `invalid messages: ${rule.rule}`,
          rule.arbitrary,
          {
            send: (input) => s.send('sendMessage', { body: input.body, contentType: input.contentType }),
            receive: (input, exchange) => s.require(exchange, { [rule.clause]: { rule: input.rule } }),
          },
          { runs: Math.max(1, Math.ceil(s.config.runs / 5)) },
        ),
      );
    },
  );
});
