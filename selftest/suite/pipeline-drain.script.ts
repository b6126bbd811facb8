// Run by pipeline-drain.test.ts under `node --expose-gc`: after a failure, the answers still out are
// let go of one by one as the pipeline drains, not all held until the last (src/suite/property.ts).
import fc from 'fast-check';
import { ConformanceFailures } from '../../src/suite/failure.ts';
import { PropertyRunner } from '../../src/suite/property.ts';
import type { WorkerContext } from '../../src/suite/worker.ts';
import { exchange } from '../checks/helpers.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const ctx = { config: { concurrent: false, deadline: Date.now() + 30_000, pipelineDepth: 4, runs: 6, seed: 1 } } as unknown as WorkerContext;
const runner = new PropertyRunner(ctx, 'drain', () => undefined);

const answered: WeakRef<object>[] = [];
let releaseLast!: () => void;
let sent = 0;
const collectedWhileWaiting = new Promise<number>((resolve) => {
  void runner.property<number, { value: number; big: Uint8Array | null }>('drain', fc.integer(), {
    send: (value) => {
      const index = sent++;
      // The first input fails; the next two are answered at once (a large answer each); the fourth waits.
      if (index === 0 || index > 3) return Promise.resolve({ value, big: null });
      const answer = { value, big: new Uint8Array(8 << 20) };
      if (index < 3) {
        answered.push(new WeakRef(answer));
        return Promise.resolve(answer);
      }
      return new Promise<typeof answer>((settle) => {
        releaseLast = () => settle(answer);
        setTimeout(async () => {
          for (let i = 0; i < 5; i++) {
            gc();
            await new Promise((r) => setTimeout(r, 10));
          }
          resolve(answered.filter((ref) => ref.deref() === undefined).length);
          releaseLast();
        }, 50);
      });
    },
    receive: (_value, answer) => {
      if (answer.big === null) throw new ConformanceFailures([{ clause: 'x', expected: 'e', actual: 'a' }], exchange(500));
    },
  });
});
process.stdout.write(`${JSON.stringify({ answered: answered.length, collected: await collectedWhileWaiting })}\n`);
