// bin/reference.mjs: help, usage errors (exit 2), standalone start and stop on SIGTERM.

import { spawn } from 'node:child_process';
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
});
