import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { curlLine } from '../../src/http/curl.ts';
import type { SentRequest } from '../../src/http/exchange.ts';
import type { StoryEvidence } from '../../src/report/model.ts';
import { storyScript } from '../../src/report/regressions.ts';

const BASE = 'http://127.0.0.1:9/v1';
const sent = (method: string, path: string, body?: string): SentRequest => ({
  method,
  url: `${BASE}${path}`,
  headers: { Accept: 'application/json', ...(body ? { 'Content-Type': 'application/json' } : {}), Authorization: 'Bearer $API_KEY' },
  ...(body ? { body } : {}),
});

/** A story as a run tells it: an animal created as 1494, a refused create, then the first asked for by its id. */
const requests = [sent('POST', '/pets', '{"name":"aaa","categoryId":1}'), sent('POST', '/pets', '{"name":"a a",}'), sent('GET', '/pets/1494')];
const story: StoryEvidence = {
  steps: [
    { call: 'create', requests: [{ request: 'POST /pets', answer: '201 {"id":1494,"name":"aaa","categoryId":1,"status":"available"}' }] },
    { call: 'create invalid', requests: [{ request: 'POST /pets', answer: '400 {"code":"bad_request","message":"x","status":400}' }] },
    { call: 'get', requests: [{ request: 'GET /pets/1494', answer: '404 {"code":"not_found","message":"x","status":404}' }] },
  ],
  curl: requests.map((request) => curlLine(request)),
  calls: [],
};

describe('the regression script of a story (reports/regressions/*.sh)', () => {
  it('echoes each line with the key unexpanded (no set -x), and asks for a created animal by the id its answer gives now', () => {
    const script = storyScript('state.id-keeps-naming', story);
    expect(script).not.toContain('set -x');
    expect(script).toContain(`/pets/'"$id1"'`);
    expect(script).not.toMatch(/\/pets\/1494/);
  });

  it.skipIf(process.platform === 'win32')('run by sh with a stand-in curl: the key reaches curl and nothing the script prints, and the GET goes to the new id', () => {
    const dir = mkdtempSync(join(tmpdir(), 'asc-story-script-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const log = join(dir, 'calls.log');
    // Prints each call's arguments to the log and answers as a fixed server would: the POST creates 2001.
    writeFileSync(
      join(dir, 'curl'),
      `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\ncase "$*" in *'-X POST'*'"name":"aaa"'*) printf 'HTTP/1.1 201 Created\\r\\n\\r\\n{"id":2001,"name":"aaa","categoryId":1}\\n' ;; *'-X POST'*) printf 'HTTP/1.1 400 Bad Request\\r\\n\\r\\n{}\\n' ;; *) printf 'HTTP/1.1 200 OK\\r\\n\\r\\n{"id":2001}\\n' ;; esac\n`,
    );
    chmodSync(join(dir, 'curl'), 0o755);
    const file = join(dir, 'story.sh');
    writeFileSync(file, storyScript('state.id-keeps-naming', story));
    const key = 'stg-Secr3t-KEY-zq81x';
    const output = execFileSync('sh', [file], { env: { ...process.env, PATH: `${dir}:${process.env.PATH ?? ''}`, API_KEY: key }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(output).not.toContain(key);
    expect(output).toContain('+ curl');
    const calls = readFileSync(log, 'utf8').trim().split('\n');
    expect(calls).toHaveLength(3);
    expect(calls.every((call) => call.includes(`Authorization: Bearer ${key}`))).toBe(true);
    expect(calls[2]).toContain(`${BASE}/pets/2001`);
  });
});
