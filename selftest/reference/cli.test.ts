// bin/reference.mjs: help, usage errors (exit 2), standalone start and stop on SIGTERM.

import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { REFERENCE_BIN as BIN, startReferenceProcess } from '../support/reference-process.ts';
import { call } from './helpers.ts';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], timeoutMs = 20_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`timed out: ${args.join(' ')}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A port free a moment ago: bound on 127.0.0.1 port 0, then released. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('bin/reference.mjs', () => {
  it('--help prints usage and exits 0', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--messages-port');
  });

  it('--list-deviations lists the catalogue', async () => {
    const r = await run(['--list-deviations']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('fault-auth-403');
    expect(r.stdout).toContain('hostile-trickle');
  });

  for (const args of [['--bogus'], ['--port', 'abc'], ['--port', '70000'], ['--messages-port'], ['--deviation', 'fault-nope', '--port', '0', '--messages-port', '0']]) {
    it(`${args.join(' ')} -> one line on stderr, exit 2`, async () => {
      const r = await run(args);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    });
  }

  it('starts, prints both base URLs, serves, and stops on SIGTERM', async () => {
    const { child, baseUrl: base, messagesBaseUrl: messages } = await startReferenceProcess(['--port', '0', '--messages-port', '0', '--api-key', 'cli-key', '--deviation', 'allowed-empty-store']);
    try {
      const list = await call(`${base}/v1/pets`, { auth: 'Bearer cli-key' });
      expect(list.status).toBe(200);
      expect(list.json).toEqual([]);
      expect((await call(`${messages}/messages`, { auth: 'Bearer cli-key', body: '{"message":"m"}' })).status).toBe(202);
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('--hostile takes a mode with or without its hostile- prefix, and an unknown one names the valid modes (exit 2)', async () => {
    const r = await run(['--hostile', 'never-answer', '--port', '0', '--messages-port', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('unknown hostile mode "never-answer": the modes are never-answers, endless-body, garbage-json, reset-mid-body, redirect-cross-origin, trickle');
    for (const mode of ['never-answers', 'hostile-never-answers']) {
      const { child, baseUrl } = await startReferenceProcess(['--hostile', mode, '--port', '0', '--messages-port', '0']);
      try {
        expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      } finally {
        const exited = new Promise((resolve) => child.on('close', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    }
  });

  it('--hostile listens on --port and --messages-port', async () => {
    const [port, messagesPort] = [await freePort(), await freePort()];
    const { child, baseUrl, messagesBaseUrl } = await startReferenceProcess(['--hostile', 'hostile-garbage-json', '--port', String(port), '--messages-port', String(messagesPort)]);
    try {
      expect([baseUrl, messagesBaseUrl]).toEqual([`http://127.0.0.1:${port}`, `http://127.0.0.1:${messagesPort}`]);
      expect((await call(`${baseUrl}/v1/pets`, { auth: 'Bearer dev-key' })).status).toBe(200);
    } finally {
      const exited = new Promise((resolve) => child.on('close', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });
});
