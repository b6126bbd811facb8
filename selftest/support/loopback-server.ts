import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { listen, trackedServer, urlOf } from '../../reference/lifecycle.ts';

export interface LoopbackServer {
  url: string;
  /** For a test that changes how it takes connections (a limit on them, one at a time). */
  server: Server;
  /** Ends every open connection, then the server. */
  close(): Promise<void>;
}

/** A test's own HTTP server on 127.0.0.1, on a free port. */
export async function serveOnLoopback(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<LoopbackServer> {
  const tracked = trackedServer(handler);
  const port = await listen(tracked.server, '127.0.0.1', 0);
  return { url: urlOf('127.0.0.1', port), server: tracked.server, close: tracked.close };
}
