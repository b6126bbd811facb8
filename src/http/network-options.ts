/**
 * How requests leave this machine: through which proxy, trusting which certificates, with which
 * gateway headers. Plain data (PEM texts, not paths), so the CLI hands it to every test worker.
 */
export interface NetworkOptions {
  proxy?: ProxySettings;
  tls?: TlsSettings;
  /** Sent on every request to `headerOrigins` (the configured base URLs), never to another origin. */
  headers?: GatewayHeader[];
  headerOrigins?: string[];
}

export interface ProxySettings {
  /** For http:// targets (absolute-form requests, as curl sends them). */
  http?: string;
  /** For https:// targets (a CONNECT tunnel). */
  https?: string;
  /** NO_PROXY as given: hosts, domains (`.example.com`, `*.example.com`), host:port, IP ranges (CIDR), `*`. */
  noProxy?: string;
}

export interface TlsSettings {
  /** PEM texts trusted on top of Node's roots (NODE_EXTRA_CA_CERTS, --ca-file). */
  ca?: string[];
  cert?: string;
  key?: string;
}

export interface GatewayHeader {
  name: string;
  /** Sent on the wire; a secret like the key. */
  value: string;
  /** The environment variable a curl line reads it from, e.g. HEADER_X_TENANT. */
  variable: string;
}

/** The gateway headers a request to `url` carries: those of the configured origins only. */
export function gatewayHeadersFor(url: URL, network: NetworkOptions | undefined): GatewayHeader[] {
  if (!network?.headers?.length || !network.headerOrigins?.includes(url.origin)) return [];
  return network.headers;
}
