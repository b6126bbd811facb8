import type { IncomingMessage, ServerResponse } from 'node:http';

/** Sends `req` on to `upstream` (at `path`, else its own) and writes the answer back: a test's gate in front of a server. */
export async function forward(req: IncomingMessage, res: ServerResponse, upstream: string, path = req.url ?? '/'): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = Object.fromEntries(Object.entries(req.headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[0] !== 'host'));
  const answer = await fetch(`${upstream}${path}`, { method: req.method, headers, ...(chunks.length ? { body: Buffer.concat(chunks) } : {}) });
  res.writeHead(answer.status, Object.fromEntries(answer.headers)).end(Buffer.from(await answer.arrayBuffer()));
}
