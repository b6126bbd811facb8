import { startRecordingProxy, type RecordedRequest } from '../selftest/support/recording-proxy.ts';

export interface DelayProxy {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * A loopback proxy that holds each answer `delayMs` before passing it on: a target that far away,
 * one round trip per request and one more for each new connection (the recording proxy of the
 * self-tests, which also keeps each request's span for the mean in flight).
 */
export function startDelayProxy(target: string, delayMs: number): Promise<DelayProxy> {
  return startRecordingProxy(target, undefined, { delayMs });
}

/** The mean number of requests in flight over a window: their summed durations over its length. */
export function meanInFlight(requests: readonly RecordedRequest[], windowMs: number): number {
  if (windowMs <= 0) return 0;
  return requests.reduce((sum, { span }) => sum + (span ? span.end - span.start : 0), 0) / windowMs;
}
