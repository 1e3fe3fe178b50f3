/**
 * `pnpm --filter @inkling/bench shared-pool`: what a job costs through the
 * scheduler and through a shared pool, in one process. Prints one JSON line
 * (microseconds per job), so that runs of two checkouts can be set side by
 * side, alternately, by any outside timer:
 *
 * - `schedulerUs`: `EnginePool` against the same zero-delay fake engine
 *   called directly (`measureOverhead`), per job.
 * - `roundTripUs`: one job at a time from a `PoolClient` to a `PoolHost`
 *   over a real `MessageChannel` and back, with three more tabs connected
 *   and listening to the snapshot (what a keystroke's job pays), per job.
 * - `burstUs`: 2000 jobs sent at once by one tab, until the last result, per job.
 * - `roundTripCpuUs`, `burstCpuUs`: the process's CPU time for the same, per
 *   job: steadier than wall time on a busy machine.
 *
 * It imports the packages by path, so a copy of it beside another checkout's
 * `packages/` measures that checkout.
 */
import { EnginePool } from '../../packages/scheduler/src/index.js';
import { createFakeEngine } from '../../packages/scheduler/src/testing/index.js';
import { PoolClient, PoolHost, manualPresence } from '../../packages/shared-pool/src/index.js';
import { median } from '../shared/stats.js';
import { measureOverhead } from '../scheduler/overhead.js';

const params = { messages: [{ role: 'user' as const, content: 'hi' }], max_tokens: 4 };

/** A host on a one-engine pool and `tabs` clients of it, each over its own MessageChannel. */
async function scene(tabs: number) {
  const engine = createFakeEngine({ reply: 'a b c' });
  const pool = new EnginePool({ createEngine: async () => engine, size: 1 });
  const host = new PoolHost(pool, { locks: null });
  const clients = Array.from({ length: tabs }, () => {
    const { port1, port2 } = new MessageChannel();
    host.serve(port1);
    return { client: new PoolClient({ connect: () => port2, locks: null, presence: manualPresence() }), port1, port2 };
  });
  const unsubscribe = clients.map(({ client }) => client.subscribe(() => {}));
  await clients[0]!.client.load();
  return {
    client: clients[0]!.client,
    close: async () => {
      for (const stop of unsubscribe) stop();
      for (const { client, port1, port2 } of clients) {
        client.close();
        port1.close();
        port2.close();
      }
      host.close();
      await pool.unload();
    },
  };
}

/** CPU time (user and system, every thread of the process) in microseconds since `from`. */
function cpuSince(from: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(from);
  return user + system;
}

async function roundTrips(jobs: number): Promise<[wall: number, cpu: number]> {
  const { client, close } = await scene(4);
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < jobs; i += 1) {
    const result = await client.submit({ params, task: 'bench' });
    if (result.text !== 'a b c') throw new Error(`a round trip came back wrong: ${result.status} ${result.error?.message}`);
  }
  const elapsed = performance.now() - start;
  const used = cpuSince(cpu);
  await close();
  return [(elapsed * 1000) / jobs, used / jobs];
}

async function burst(jobs: number): Promise<[wall: number, cpu: number]> {
  const { client, close } = await scene(1);
  const cpu = process.cpuUsage();
  const start = performance.now();
  const results = await Promise.all(Array.from({ length: jobs }, () => client.submit({ params, task: 'bench' })));
  const elapsed = performance.now() - start;
  const used = cpuSince(cpu);
  if (results.some((r) => r.text !== 'a b c')) throw new Error('a burst job came back wrong');
  await close();
  return [(elapsed * 1000) / jobs, used / jobs];
}

await roundTrips(200); // warm up
await burst(200);
const overhead = await measureOverhead(5000, 3);
const trips: Array<[number, number]> = [];
const bursts: Array<[number, number]> = [];
for (let r = 0; r < 3; r += 1) {
  trips.push(await roundTrips(1000));
  bursts.push(await burst(2000));
}
const at = (runs: Array<[number, number]>, i: 0 | 1) => Number(median(runs.map((run) => run[i])).toFixed(2));
console.log(
  JSON.stringify({
    schedulerUs: Number(overhead.overheadPerJobUs.toFixed(2)),
    roundTripUs: at(trips, 0),
    roundTripCpuUs: at(trips, 1),
    burstUs: at(bursts, 0),
    burstCpuUs: at(bursts, 1),
  }),
);
