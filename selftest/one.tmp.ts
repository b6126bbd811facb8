import { spawn } from 'node:child_process';
import { startReference } from '../reference/server.ts';
const [dev, ...args] = process.argv.slice(2);
const server = await startReference({ apiKey: 'k-123456789', deviations: dev === 'none' ? [] : dev!.split(',') });
const code = await new Promise((resolve) => {
  const c = spawn('node', ['bin/animal-store-conformance.mjs', '--base-url', server.baseUrl, '--messages-base-url', server.messagesBaseUrl, ...args], { env: { ...process.env, API_KEY: 'k-123456789' }, stdio: 'inherit' });
  c.on('close', resolve);
});
await server.close();
console.log('exit', code);
