/**
 * report.json: the RunReport as pretty JSON with a stable key order (the order of the model),
 * header names sorted, sections in natural order. Validates against spec/report.schema.json.
 */
import type {
  Capability,
  CheckResult,
  ClauseResult,
  Evidence,
  FailureEvidence,
  RecordedRequest,
  RecordedResponse,
  RunReport,
} from './model.ts';
import { compareSections } from '../contract/clauses.ts';
import { redactReport } from '../secrets.ts';
import type { RenderOptions } from './format.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Builds an object from [key, value] pairs in the given order, dropping undefined values. */
function ordered(pairs: [string, Json | undefined][]): { [key: string]: Json } {
  const out: { [key: string]: Json } = {};
  for (const [k, v] of pairs) if (v !== undefined) out[k] = v;
  return out;
}

function headers(h: Record<string, string>): { [key: string]: Json } {
  const out: { [key: string]: Json } = {};
  const keys = Object.keys(h).sort((a, b) => {
    const la = a.toLowerCase();
    const lb = b.toLowerCase();
    return la < lb ? -1 : la > lb ? 1 : a < b ? -1 : a > b ? 1 : 0;
  });
  for (const k of keys) out[k] = h[k] ?? '';
  return out;
}

function request(r: RecordedRequest): Json {
  return ordered([
    ['method', r.method],
    ['url', r.url],
    ['headers', headers(r.headers)],
    ['body', r.body],
    ['bodyHex', r.bodyHex],
  ]);
}

function response(r: RecordedResponse): Json {
  return ordered([
    ['status', r.status],
    ['headers', headers(r.headers)],
    ['bodyExcerpt', r.bodyExcerpt],
    ['bodyTruncated', r.bodyTruncated],
  ]);
}

function evidence(e: Evidence): Json {
  return ordered([
    ['request', request(e.request)],
    ['response', e.response ? response(e.response) : undefined],
    ['transportError', e.transportError],
    ['curl', e.curl],
  ]);
}

function failureFields(f: Omit<FailureEvidence, 'operation'>): [string, Json | undefined][] {
  return [
    ['expected', f.expected],
    ['actual', f.actual],
    ['evidence', f.evidence ? evidence(f.evidence) : undefined],
    ['counterexample', f.counterexample],
    ['seed', f.seed],
    ['path', f.path],
    ['shard', f.shard],
    ['story', f.story as Json | undefined],
  ];
}

function failure(f: FailureEvidence): Json {
  return ordered([['operation', f.operation], ...failureFields(f)]);
}

function check(c: CheckResult): Json {
  return ordered([
    ['check', c.check],
    ['clause', c.clause],
    ['outcome', c.outcome],
    ...failureFields(c),
    ['note', c.note],
    ['blockedBy', c.blockedBy],
    ['failures', c.failures?.map(failure)],
    ['moreFailures', c.moreFailures],
    ['warnings', c.warnings?.map(failure)],
    ['moreWarnings', c.moreWarnings],
    ['judged', c.judged],
    ['judgedByOperation', c.judgedByOperation && { ...c.judgedByOperation }],
  ]);
}

function clause(c: ClauseResult): Json {
  return ordered([
    ['id', c.id],
    ['section', c.section],
    ['title', c.title],
    ['sentence', c.sentence],
    ['basis', c.basis],
    ['level', c.level],
    ['operations', [...c.operations]],
    ['outcome', c.outcome],
    ['known', c.known && ordered([['reason', c.known.reason], ['expires', c.known.expires]])],
    ['judgedByOperation', c.judgedByOperation && { ...c.judgedByOperation }],
    [
      'shortfalls',
      c.shortfalls?.map((s) =>
        ordered([
          ['operation', s.operation],
          ['reason', s.reason],
          ['blockedBy', s.blockedBy],
          ['choice', s.choice],
        ]),
      ),
    ],
    ['coverage', c.coverage && ordered([
      ['covered', c.coverage.covered && [...c.coverage.covered]],
      ['unjudged', c.coverage.unjudged && Object.fromEntries(Object.entries(c.coverage.unjudged).map(([op, u]) => [op, ordered([['reason', u.reason], ['count', u.count]])]))],
      ['blocked', c.coverage.blocked && ordered([['reason', c.coverage.blocked.reason], ['blockedBy', c.coverage.blocked.blockedBy]])],
      ['rateLimitedOn', c.coverage.rateLimitedOn && { ...c.coverage.rateLimitedOn }],
    ])],
    ['checks', c.checks.map(check)],
  ]);
}

function capability(c: Capability): Json {
  return ordered([
    ['id', c.id],
    ['title', c.title],
    ['value', c.value],
    ['detail', c.detail],
  ]);
}

/** The report as a plain JSON value in canonical key order. */
export function toCanonicalJson(report: RunReport): Json {
  // Stable sort: clauses keep their relative order inside a section.
  const clauses = report.clauses
    .map((c, i) => ({ c, i }))
    .sort((a, b) => compareSections(a.c.section, b.c.section) || a.i - b.i)
    .map(({ c }) => clause(c));
  return ordered([
    ['tool', ordered([['name', report.tool.name], ['version', report.tool.version]])],
    ['spec', ordered([['title', report.spec.title], ['version', report.spec.version]])],
    [
      'target',
      ordered([
        ['baseUrl', report.target.baseUrl],
        ['messagesBaseUrl', report.target.messagesBaseUrl],
        ['env', report.target.env],
        ['embedded', report.target.embedded],
      ]),
    ],
    ['seed', report.seed],
    ['runs', report.runs],
    ['startedAt', report.startedAt],
    ['durationMs', report.durationMs],
    ['scenarios', report.scenarios?.map((s) => ordered([['title', s.title], ['atMs', s.atMs], ['ms', s.ms], ['requests', s.requests]]))],
    ['now', report.now],
    ['nowGiven', report.nowGiven],
    ['failOn', report.failOn],
    ['replay', report.replay],
    ['pipeline', report.pipeline && ordered([['depth', report.pipeline.depth], ['roundTripMs', report.pipeline.roundTripMs], ['schedule', report.pipeline.schedule]])],
    [
      'summary',
      ordered([
        ['pass', report.summary.pass],
        ['fail', report.summary.fail],
        ['warn', report.summary.warn],
        ['partial', report.summary.partial],
        ['skip', report.summary.skip],
        ['observe', report.summary.observe],
        ['error', report.summary.error],
      ]),
    ],
    ['clauses', clauses],
    ['capabilities', report.capabilities.map(capability)],
    ['causes', report.causes?.map((c) => ordered([['summary', c.summary], ['clauses', [...c.clauses]]]))],
    ['engineErrors', [...report.engineErrors]],
    ['verdict', report.verdict],
    ['exitCode', report.exitCode],
    ['traffic', report.traffic && ordered([['requests', report.traffic.requests], ['rateLimited', report.traffic.rateLimited], ['unavailable', report.traffic.unavailable], ['retryAfter', report.traffic.retryAfter], ['resent', report.traffic.resent], ['unrequestedAnswers', report.traffic.unrequestedAnswers], ['overloaded', report.traffic.overloaded], ['pacedRps', report.traffic.pacedRps], ['servedConnections', report.traffic.servedConnections]])],
    ['shard', report.shard && ordered([['index', report.shard.index], ['count', report.shard.count]])],
    [
      'merged',
      report.merged &&
        ordered([
          ['shards', report.merged.shards.map((s) => ordered([['index', s.index], ['count', s.count], ['startedAt', s.startedAt], ['durationMs', s.durationMs], ['requests', s.requests], ['replay', s.replay]]))],
        ]),
    ],
  ]);
}

/**
 * report.json text: 2-space indentation, trailing newline. Lone surrogates in server bodies are
 * written as `\udXXX` escapes (JSON.stringify is well-formed), so the file is valid UTF-8.
 */
export function renderJson(input: RunReport, options: RenderOptions = {}): string {
  const report = redactReport(input, options.secrets);
  // Every string and key was redacted above; no pass over the text, so the JSON stays valid.
  return JSON.stringify(toCanonicalJson(report), null, 2) + '\n';
}
