import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

export interface TcpDelayProxy {
  url: string;
  close(): Promise<void>;
}

/**
 * A loopback TCP proxy that passes every byte as it is and holds what `target` sends `delayMs`:
 * a server that far away, whatever it answers (framing a faulty server breaks included, which an
 * HTTP proxy would mend). A new connection waits one more round trip, the handshake's. Bytes the
 * client sends meanwhile queue in order. A reset passes as a reset, either way.
 */
export async function startTcpDelayProxy(target: string, delayMs: number): Promise<TcpDelayProxy> {
  const upstream = new URL(target);
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  // What a server sends beyond this while held or unread by the client waits in the server's socket.
  const maxHeldBytes = 4 * 1024 * 1024;
  const later = (work: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      work();
    }, delayMs);
    timers.add(timer);
  };
  // Half-open both ways: an end passes on only after the bytes before it, not as soon as it comes in.
  const server = createServer({ allowHalfOpen: true }, (client) => {
    client.pause();
    sockets.add(client);
    let upstreamSocket: Socket | undefined;
    client.on('error', () => upstreamSocket?.resetAndDestroy());
    client.on('close', () => {
      sockets.delete(client);
      upstreamSocket?.destroy();
    });
    later(() => {
      if (client.destroyed) return;
      const toServer = connect({ host: upstream.hostname, port: Number(upstream.port), allowHalfOpen: true });
      upstreamSocket = toServer;
      sockets.add(toServer);
      client.on('data', (chunk) => toServer.write(chunk));
      client.on('end', () => toServer.end());
      // Each chunk the same time later, so they arrive in the order sent; so does the end, or a reset.
      let held = 0;
      toServer.on('data', (chunk: Buffer) => {
        held += chunk.length;
        if (held > maxHeldBytes) toServer.pause();
        later(() =>
          client.write(chunk, () => {
            held -= chunk.length;
            if (held <= maxHeldBytes && toServer.isPaused()) toServer.resume();
          }),
        );
      });
      toServer.on('end', () => later(() => client.end()));
      toServer.on('error', () => later(() => client.resetAndDestroy()));
      toServer.on('close', () => sockets.delete(toServer));
      client.resume();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
