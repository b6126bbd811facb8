// Preloaded into a CLI run (NODE_OPTIONS=--import) by runCli's measureRss: at exit, appends
// "<pid> <peak RSS in KiB>" to $ASC_PEAK_RSS_FILE. Worker threads share the process, so they count.
import { appendFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const file = process.env.ASC_PEAK_RSS_FILE;
if (file && isMainThread) {
  process.on('exit', () => {
    appendFileSync(file, `${process.pid} ${process.resourceUsage().maxRSS}\n`);
  });
}
