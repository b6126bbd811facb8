import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REFERENCE_BIN = fileURLToPath(new URL('../../bin/reference.mjs', import.meta.url));

export interface ReferenceProcess {
  child: ChildProcess;
  baseUrl: string;
  messagesBaseUrl: string;
}

/** Starts bin/reference.mjs as its own process and waits until it prints both base URLs. */
export function startReferenceProcess(args: string[], timeoutMs = 20_000): Promise<ReferenceProcess> {
  const child = spawn(process.execPath, [REFERENCE_BIN, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`the reference server printed no base URLs: ${out}`));
    }, timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const baseUrl = /\bbaseUrl:\s+(\S+)/.exec(out)?.[1];
      const messagesBaseUrl = /messagesBaseUrl:\s+(\S+)/.exec(out)?.[1];
      if (baseUrl && messagesBaseUrl) {
        clearTimeout(timer);
        resolve({ child, baseUrl, messagesBaseUrl });
      }
    });
  });
}
