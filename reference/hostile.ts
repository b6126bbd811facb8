// Hostile transport servers: each answers EVERY request, on both the main and the messages port,
// with one misbehaviour, to check that the suite's client stays bounded and does not leak.

import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isProxyMode, PROXY_MODES, proxyServers } from './hostile-proxy.ts';
import { listen, trackedServer, urlOf, type Tracked } from './lifecycle.ts';
import { startReference, type RunningReference } from './server.ts';

export interface HostileMode {
  id: string;
  description: string;
}

export const HOSTILE_MODES: readonly HostileMode[] = [
  { id: 'hostile-never-answers', description: 'Reads the whole request, never writes anything.' },
  { id: 'hostile-endless-body', description: '200 application/json streaming `[` then `{"id":1,"name":"x","categoryId":1},` forever (respects backpressure, stops when the client goes).' },
  { id: 'hostile-garbage-json', description: '200 application/json with 4 KiB of random bytes, invalid UTF-8 included.' },
  { id: 'hostile-reset-mid-body', description: '200 with Content-Length: 1000, writes 100 bytes, then destroys the socket.' },
  { id: 'hostile-redirect-cross-origin', description: '307 to the same path on another origin (http://127.0.0.2:<port>) whose server records whether an Authorization header arrived.' },
  { id: 'hostile-trickle', description: '200 application/json, one byte every 2 s of a small valid Pets array (about 2 minutes in all).' },
  ...PROXY_MODES,
];

/** The prefix every mode's id carries; on the command line it may be left out (`--hostile never-answers`). */
const PREFIX = 'hostile-';

/** The mode `name` stands for, with or without its `hostile-` prefix; any other name throws, listing the modes. */
export function hostileMode(name: string): HostileMode {
  const id = name.startsWith(PREFIX) ? name : `${PREFIX}${name}`;
  const mode = HOSTILE_MODES.find((m) => m.id === id);
  if (!mode) {
    const names = HOSTILE_MODES.map((m) => m.id.slice(PREFIX.length)).join(', ');
    throw new Error(`unknown hostile mode ${JSON.stringify(name)}: the modes are ${names} (the ${PREFIX} prefix is optional)`);
  }
  return mode;
}

export interface HostileOptions {
  apiKey: string;
  /** Where both servers listen (default 127.0.0.1). */
  host?: string;
  /** The main port (default 0: any free port). */
  port?: number;
  /** The messages port (default 0: any free port). */
  messagesPort?: number;
}

export interface RunningHostile extends RunningReference {
  /** hostile-redirect-cross-origin: whether any request reached the other origin with an Authorization header. Always false for other modes. */
  authorizationLeaked(): boolean;
}

const HOST = '127.0.0.1';
const JSON_TYPE = 'application/json';

/** Timers of one hostile server, cleared on close. */
class Timers {
  private readonly handles = new Set<NodeJS.Timeout>();
  private closed = false;
  every(ms: number, fn: () => void): () => void {
    if (this.closed) return () => undefined;
    const handle = setInterval(fn, ms);
    this.handles.add(handle);
    return () => {
      clearInterval(handle);
      this.handles.delete(handle);
    };
  }
  clearAll(): void {
    this.closed = true;
    for (const handle of this.handles) clearInterval(handle);
    this.handles.clear();
  }
}

type Behaviour = (req: IncomingMessage, res: ServerResponse) => void;

function neverAnswers(): Behaviour {
  return (req) => {
    req.resume(); // read and discard the body; never write
  };
}

function endlessBody(): Behaviour {
  const item = Buffer.from('{"id":1,"name":"x","categoryId":1},'.repeat(64));
  return (req, res) => {
    res.writeHead(200, { 'Content-Type': JSON_TYPE });
    // Node drops a HEAD answer's body and never pushes back: the pump would spin for ever.
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    res.write('[');
    const pump = (): void => {
      while (!res.destroyed && !res.writableEnded) {
        if (!res.write(item)) {
          res.once('drain', pump);
          return;
        }
      }
    };
    pump();
  };
}

function garbageJson(): Behaviour {
  return (_req, res) => {
    const body = Buffer.concat([Buffer.from('[{"id":'), Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]), randomBytes(4096)]);
    res.writeHead(200, { 'Content-Type': JSON_TYPE, 'Content-Length': body.length });
    res.end(body);
  };
}

function resetMidBody(): Behaviour {
  const first = Buffer.from('[{"id":1,"name":"x","categoryId":1},'.repeat(3)).subarray(0, 100);
  return (_req, res) => {
    res.writeHead(200, { 'Content-Type': JSON_TYPE, 'Content-Length': 1000 });
    res.write(first, () => res.socket?.destroy());
  };
}

function trickle(timers: Timers): Behaviour {
  const doc = Buffer.from('[{"id":1,"name":"trickle","categoryId":1,"status":"available"}]');
  return (_req, res) => {
    res.writeHead(200, { 'Content-Type': JSON_TYPE, 'Content-Length': doc.length });
    let sent = 0;
    const step = () => {
      if (res.destroyed) return stop();
      res.write(doc.subarray(sent, sent + 1));
      sent += 1;
      if (sent >= doc.length) {
        stop();
        res.end();
      }
    };
    const stop = timers.every(2000, step);
    res.once('close', stop);
    step();
  };
}

function redirectTo(origin: () => string): Behaviour {
  return (req, res) => {
    const body = JSON.stringify({ code: 'temporary_redirect', message: 'moved to another origin', status: 307 });
    res.writeHead(307, { Location: `${origin()}${req.url ?? '/'}`, 'Content-Type': JSON_TYPE, 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  };
}

/** The "other origin": records whether an Authorization header arrived, answers 200 []. */
async function startRecorder(): Promise<{ tracked: Tracked; origin: string; leaked(): boolean }> {
  let leaked = false;
  const tracked = trackedServer((req, res) => {
    if (req.headers.authorization !== undefined) leaked = true;
    req.resume();
    req.once('end', () => {
      res.writeHead(200, { 'Content-Type': JSON_TYPE, 'Content-Length': 2 });
      res.end('[]');
    });
  });
  let host = '127.0.0.2';
  let port: number;
  try {
    port = await listen(tracked.server, host, 0);
  } catch {
    // 127.0.0.2 is not a loopback address everywhere (macOS); another port is still another origin.
    host = HOST;
    port = await listen(tracked.server, host, 0);
  }
  return { tracked, origin: urlOf(host, port), leaked: () => leaked };
}

export async function startHostile(name: string, options: HostileOptions): Promise<RunningHostile> {
  const mode = hostileMode(name).id;
  const { host = HOST, port = 0, messagesPort = 0 } = options;
  if (isProxyMode(mode)) return startProxied(mode, { host, port, messagesPort, apiKey: options.apiKey });
  const timers = new Timers();
  const extra: Tracked[] = [];
  let leaked = (): boolean => false;

  let behaviour: Behaviour;
  switch (mode) {
    case 'hostile-never-answers':
      behaviour = neverAnswers();
      break;
    case 'hostile-endless-body':
      behaviour = endlessBody();
      break;
    case 'hostile-garbage-json':
      behaviour = garbageJson();
      break;
    case 'hostile-reset-mid-body':
      behaviour = resetMidBody();
      break;
    case 'hostile-trickle':
      behaviour = trickle(timers);
      break;
    default: {
      const recorder = await startRecorder();
      extra.push(recorder.tracked);
      leaked = recorder.leaked;
      behaviour = redirectTo(() => recorder.origin);
    }
  }

  const main = trackedServer(behaviour);
  const messages = trackedServer(behaviour);
  const servers = [main, messages, ...extra];
  const close = async (): Promise<void> => {
    timers.clearAll();
    await Promise.all(servers.map((s) => s.close()));
  };
  try {
    const mainPort = await listen(main.server, host, port);
    const otherPort = await listen(messages.server, host, messagesPort);
    return { baseUrl: urlOf(host, mainPort), messagesBaseUrl: urlOf(host, otherPort), close, authorizationLeaked: () => leaked() };
  } catch (error) {
    await close();
    throw error;
  }
}

/** A faithful reference on free loopback ports, behind a proxy of the mode on the ports asked for. */
async function startProxied(mode: Parameters<typeof proxyServers>[0], options: Required<HostileOptions>): Promise<RunningHostile> {
  const upstream = await startReference({ apiKey: options.apiKey });
  const [main, messages] = proxyServers(mode, [upstream.baseUrl, upstream.messagesBaseUrl]);
  const close = async (): Promise<void> => {
    await Promise.all([main.close(), messages.close(), upstream.close()]);
  };
  try {
    const mainPort = await listen(main.server, options.host, options.port);
    const otherPort = await listen(messages.server, options.host, options.messagesPort);
    return { baseUrl: urlOf(options.host, mainPort), messagesBaseUrl: urlOf(options.host, otherPort), close, authorizationLeaked: () => false };
  } catch (error) {
    await close();
    throw error;
  }
}
