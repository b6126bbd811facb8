/**
 * The wrong keys the suite derives from the key (its letters' case swapped, its last or first character cut or replaced, a middle one replaced)
 * hold almost all of it: a server that echoes them back must not get them into any output.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nearMissKeys } from '../../src/secrets.ts';
import { serveOnLoopback, type LoopbackServer } from '../support/loopback-server.ts';
import { runCli } from '../support/run-cli.ts';
import { shows } from '../support/secrets.ts';

/**
 * Accepts the key, and the near misses and glued probes too, answering those with every one of
 * them it has seen: the evidence of the failing check shows them all. Any other key gets 401.
 */
/** The probes that glue something to the key: a short key inside them is no token of its own, so they are named for redaction. */
const glued = (key: string) => [`x${key}`, `Bearer${key}`];

function echoServer(key: string): Promise<LoopbackServer> {
  const nearMisses = [...Object.values(nearMissKeys(key)).map((near) => `Bearer ${near}`), `Bearer x${key}`, `Bearer${key}`];
  const seen = new Set<string>();
  return serveOnLoopback((req, res) => {
    const authorization = req.headers.authorization ?? '';
    if (nearMisses.includes(authorization)) seen.add(authorization);
    if (authorization === `Bearer ${key}` || seen.has(authorization)) {
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json', 'x-echo': authorization });
      res.end(seen.has(authorization) ? JSON.stringify({ seen: [...seen] }) : '[]');
      return;
    }
    res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' });
    res.end(JSON.stringify({ code: 'unauthorized', message: 'missing or invalid API key', status: 401 }));
  });
}

describe('a server that echoes the case-swapped, cut and one-character-replaced keys back', () => {
  for (const key of ['Cli-Echo-Secret-9f2b7e', 'Qz7w', '4815162342']) {
    describe(`key of ${key.length} characters`, () => {
      let echo: LoopbackServer;
      beforeAll(async () => {
        echo = await echoServer(key);
      });
      afterAll(() => echo.close());

      it('fails auth.required, and no output holds the key or a wrong key derived from it', async () => {
        const result = await runCli(['--base-url', echo.url, '--only', 'auth.required', '--runs', '1', '--seed', '3'], { API_KEY: key });
        expect(result.code).toBe(1);
        const evidence = result.report?.clauses.find((c) => c.id === 'auth.required')?.checks.map((c) => c.evidence?.response?.bodyExcerpt);
        // Each near miss it has seen, shown as the placeholder (case-swapped, cut at the end, cut at the start, a character replaced at the end, start and middle, a key of digits written otherwise).
        // Each probe it accepted echoed with the key replaced (a short key's glued probes whole).
        const echoed = new RegExp(`^\\{"seen":\\["[^"]*\\$API_KEY[^"]*"(,"[^"]*\\$API_KEY[^"]*"){${Object.keys(nearMissKeys(key)).length + glued(key).length - 1}}\\]\\}$`);
        expect(evidence?.some((body) => body !== undefined && echoed.test(body)), JSON.stringify(evidence)).toBe(true);
        const outputs = { stdout: result.stdout, stderr: result.stderr, ...result.files };
        // stdout, stderr, the four reports and created.json.
        expect(Object.keys(outputs)).toHaveLength(7);
        for (const form of [key, ...Object.values(nearMissKeys(key)), ...glued(key)]) {
          for (const [where, text] of Object.entries(outputs)) expect(shows(text, form), `${form} in ${where}`).toBe(false);
        }
      });
    });
  }
});
