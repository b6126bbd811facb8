import { TargetUnreachableError, UsageError } from '../errors.ts';
import { DEFAULT_CLIENT_OPTIONS, HttpClient, type OutgoingRequest } from '../http/client.ts';
import { header, jsonObject, type Exchange } from '../http/exchange.ts';
import type { NetworkOptions } from '../http/network-options.ts';
import { proxyFor, shownProxy } from '../http/proxy.ts';
import { tlsFailure } from '../http/tls-probe.ts';
import { wantsAnotherSample, type SuiteConfig } from '../suite/config.ts';
import { isSelected, onlyFocus } from '../suite/selection.ts';
import { createdBy, type CreatedItem } from '../suite/trail.ts';

/**
 * One request before the suite starts, so an unreachable target or a refused key is one line, not a
 * wall of failures; then more on the same connection, for the target's round trip (see
 * wantsAnotherSample; undefined: no answer), while one to the message host checks that it answers
 * and, where the run writes there, takes the key (messageHostProbe). `created`: what a target that
 * takes `{}` as a message made of it, for created.json.
 */
export async function preflight(config: SuiteConfig, keySource: string): Promise<{ roundTripMs?: number; note?: string; created: CreatedItem[] }> {
  const created: CreatedItem[] = [];
  const observe = (exchange: Exchange) => {
    const item = createdBy(exchange, config);
    if (item) created.push(item);
  };
  // Two in flight (unless --concurrency 1): the message host's check goes out beside the round trip's answers, timed one at a time.
  const client = new HttpClient({ ...DEFAULT_CLIENT_OPTIONS, timeoutMs: config.timeoutMs, concurrency: Math.min(2, config.concurrency), retries429: 0, observe, ...(config.network ? { network: config.network } : {}) });
  const listOne = () =>
    client.send({
      method: 'GET',
      url: `${config.baseUrl}/v1/pets?limit=1`,
      headers: { Accept: 'application/json' },
      authorization: { value: `Bearer ${config.apiKey}`, shown: 'Bearer $API_KEY' },
    });
  try {
    const exchange = await listOne();
    const failure = exchange.failure;
    if (failure?.kind === 'headers-too-large') {
      throw new TargetUnreachableError(`${config.baseUrl}/v1/pets answered, but ${failure.message}, more than the suite reads`);
    }
    if (failure) throw new TargetUnreachableError(await unreachableLine(exchange, config));
    const status = exchange.response?.status;
    refusedKey(exchange, `${config.baseUrl}/v1/pets`, keySource);
    // Asked before the message host: a POST there may create a message, which a stop here would leave unrecorded.
    if (status === 404) {
      const probe = await client.send({ method: 'GET', url: `${config.baseUrl}/pets?limit=1`, authorization: { value: `Bearer ${config.apiKey}`, shown: '' } });
      if (probe.response && probe.response.status !== 404) {
        throw new UsageError(`BASE_URL: ${config.baseUrl}/v1/pets is 404 but ${config.baseUrl}/pets answers: does the base URL already hold the version prefix?`);
      }
    }
    // A message host whose one operation is left out is sent nothing.
    const messages = config.messagesBaseUrl && !config.skip.includes('sendMessage') ? client.send(messageHostProbe(config)) : undefined;
    const messagesReachable = async () => {
      let answer = await messages;
      // A POST the host leaves unanswered (or resets) while it answers a GET is the message clauses' to judge, not an unreachable host.
      if (answer?.failure && answer.request.method === 'POST' && answer.failure.kind !== 'refused' && answer.failure.kind !== 'dns') {
        const get = await client.send(messageHostGet(config));
        // Neither answered: the POST's failure says why (the GET after a timeout gets only a shortened wait).
        if (!get.failure) answer = get;
      }
      if (answer?.failure) throw new TargetUnreachableError(await unreachableLine(answer, config));
      if (answer?.request.method === 'POST') refusedKey(answer, `${config.messagesBaseUrl}/messages`, keySource, `${config.baseUrl}/v1/pets`);
    };
    // A 404 there is the listing's failure to judge, yet far more often a base URL that is not the service's.
    const note = status === 404 ? `GET ${config.baseUrl}/v1/pets answered 404: if the base URL is not the service's (a path missing or one too many), the checks below fail for that` : undefined;
    const roundTrip = async (): Promise<number | undefined> => {
      if (!exchange.response) return undefined;
      // The first paid for the connection (and TLS); the fastest of it and those after it is the round trip a property waits for.
      let fastest = exchange.durationMs;
      for (let taken = 1; wantsAnotherSample(taken, fastest); taken++) {
        // undici frees a connection for the next request one turn of the event loop after an answer
        // ends: sent sooner, the sample would open a connection of its own and time its handshake too.
        await new Promise<void>((resolve) => setImmediate(resolve));
        const again = await listOne();
        if (!again.response) return undefined;
        fastest = Math.min(fastest, again.durationMs);
      }
      return fastest;
    };
    const [roundTripMs] = await Promise.all([roundTrip(), messagesReachable()]);
    return { ...(roundTripMs === undefined ? {} : { roundTripMs }), ...(note ? { note } : {}), created };
  } finally {
    await client.close();
  }
}

/**
 * A 401 or 403 to the configured key is one line (exit 2): a wall of auth failures would say less.
 * `acceptedBy`: the URL that took the same key already (the message host is asked second).
 */
function refusedKey(exchange: Exchange, shown: string, keySource: string, acceptedBy?: string): void {
  const status = exchange.response?.status;
  if (status !== 401 && status !== 403) return;
  const body = jsonObject(exchange);
  const serviceError = typeof body?.code === 'string' && typeof body.message === 'string';
  const gateway = serviceError
    ? ''
    : ` with no Error body (${header(exchange, 'content-type') ?? 'no Content-Type'}): a gateway, WAF or proxy in front of the service may have refused the request, not the service the key;`;
  const check = acceptedBy ? `${acceptedBy} took the same key: check that both hosts belong to one deployment` : 'check the key';
  throw new UsageError(`${keySource}: ${shown} answered ${status} to the configured key${gateway || ';'} ${check} (a server that refuses valid keys fails auth.valid-key-accepted)`);
}

/**
 * What the message host is asked. Where the run may write and judges a message clause, the key goes
 * with a body that names no message (`{}`, which §4.5 answers with 400), so a key that host refuses
 * is found before the run; otherwise a GET without the key only shows that it answers.
 */
function messageHostProbe(config: SuiteConfig): OutgoingRequest {
  const get = messageHostGet(config);
  const judged = config.clauses.some((clause) => clause.operations.includes('sendMessage') && isSelected(clause, config.only, config.skip) && (onlyFocus(clause, config.only)?.has('sendMessage') ?? true));
  if (!config.writes || !judged) return get;
  return {
    ...get,
    method: 'POST',
    headers: { ...get.headers, 'Content-Type': 'application/json' },
    body: '{}',
    lone: true,
    authorization: { value: `Bearer ${config.apiKey}`, shown: 'Bearer $API_KEY' },
  };
}

function messageHostGet(config: SuiteConfig): OutgoingRequest {
  return { method: 'GET', url: `${config.messagesBaseUrl}/messages`, headers: { Accept: 'application/json' } };
}

/** What a TLS failure most likely means, and what to give the suite. */
function tlsHint(message: string, network: NetworkOptions | undefined): string {
  if (/CERT_HAS_EXPIRED|expired/i.test(message)) return 'its certificate has expired';
  if (/ALTNAME|does not match|not in the cert's/i.test(message)) return 'its certificate is not for this host name';
  if (/self[- ]signed|UNABLE_TO_|unable to (get|verify)|issuer/i.test(message)) {
    return `its certificate is not signed by a CA the suite trusts${network?.tls?.ca ? ' (nor by --ca-file)' : ': give that CA with --ca-file PATH (PEM)'}`;
  }
  if (/CERTIFICATE_REQUIRED|certificate required|handshake failure|BAD_CERTIFICATE|UNKNOWN_CA|unknown ca|bad certificate/i.test(message)) {
    return network?.tls?.cert ? 'it refused the client certificate' : 'it asks for a client certificate: give --client-cert and --client-key';
  }
  // OpenSSL's reading of an answer in plain HTTP where a TLS record belongs.
  if (/wrong version number|WRONG_VERSION_NUMBER|packet length too long|http request/i.test(message)) return 'it answered in plain text, not TLS: it may speak plain http (try an http:// URL)';
  return 'the TLS handshake failed';
}

/**
 * The one line for a preflight request that got no answer: the URL (or, for TLS, the host) and the
 * reason, naming the proxy when one was in the way. A reset, or bytes that are not HTTP (a wrong
 * port, a non-HTTP service), is no answer to judge either.
 */
async function unreachableLine(exchange: Exchange, config: SuiteConfig): Promise<string> {
  const url = new URL(exchange.request.url);
  let failure = exchange.failure!;
  if (failure.kind === 'reset' || failure.kind === 'other') {
    // A TLS server that refuses the client (certificate) may just close the connection: ask it why.
    const reason = await tlsFailure(url, config.network, config.timeoutMs);
    if (reason) failure = { kind: 'tls', message: reason };
  }
  const proxy = proxyFor(url, config.network?.proxy);
  const via = proxy ? `; through the proxy ${shownProxy(proxy)}` : '';
  const shown = `${url.origin}${url.pathname}`;
  const proxyStatus = /Proxy.*\((\d{3})\)/.exec(failure.message)?.[1];
  if (proxy && proxyStatus) {
    const why = proxyStatus === '407' ? ': check the credentials in the proxy URL' : '';
    return `cannot reach ${shown}: the proxy ${shownProxy(proxy)} refused it with ${proxyStatus}${why}`;
  }
  if (failure.kind === 'tls') return `${url.host}: TLS failed, ${tlsHint(failure.message, config.network)}; ${failure.message}${via}`;
  if (failure.kind === 'malformed') return `${shown} answered, but its answer is ${failure.message}${via}`;
  const reasons: Partial<Record<string, string>> = {
    refused: proxy ? 'connection refused (by the proxy)' : 'connection refused',
    dns: 'host name not found',
    timeout: `no answer within ${config.timeoutMs} ms`,
  };
  const reason = reasons[failure.kind] ?? 'no HTTP answer';
  // The client's own words may already say it (a timeout's do): said once.
  const detail = failure.message.includes(reason) ? '' : ` (${failure.message})`;
  return `cannot reach ${shown}: ${reason}${detail}${via}`;
}
