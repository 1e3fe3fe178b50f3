import { type ChatJobSpec, EnginePool, type EnginePoolOptions } from '@inkling/scheduler';
import { type FakeEnginesOptions, fakeEngines } from '@inkling/scheduler/testing';
import { vi } from 'vitest';
import { type ErrorClasses, PoolClient, PoolHost, type PoolHostOptions } from '../src/index.js';
import { manualPresence, memoryLocks } from '../src/testing/index.js';

/** A chat job spec asking for `content`. */
export function chat(content: string, extra: Partial<ChatJobSpec> = {}): ChatJobSpec {
  return { params: { messages: [{ role: 'user', content }] }, ...extra };
}

/** Fake timers for the engines and the pushes; messages still cross real MessagePorts. */
export function useFakeClock(): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance', 'Date'] });
}

/** Node's setImmediate, which the fake clock leaves real. */
const immediate = (globalThis as unknown as { setImmediate: (callback: () => void) => void }).setImmediate;

/** Lets messages in flight on MessagePorts arrive (they ride the real event loop). */
export async function flush(turns = 6): Promise<void> {
  for (let i = 0; i < turns; i += 1) await new Promise<void>((resolve) => immediate(resolve));
}

/** Advances the fake clock `ms` in small steps, letting messages arrive between them. */
export async function run(ms: number, step = 4): Promise<void> {
  for (let t = 0; t < ms; t += step) {
    await vi.advanceTimersByTimeAsync(Math.min(step, ms - t));
    await flush(2);
  }
  await flush();
}

/**
 * A host pool of fake engines and a way to start tabs on it. `kill()` makes
 * the host die as a killed worker would (its ports and locks go); the next
 * connection reaches a fresh host with a fresh pool.
 */
export function sharedScene(engine: FakeEnginesOptions = {}, pool: Partial<EnginePoolOptions> = {}, hostOptions: PoolHostOptions = {}) {
  const locks = memoryLocks();
  const ports: MessagePort[] = [];
  let generation = 0;
  const start = () => {
    generation += 1;
    const createEngine = fakeEngines(engine);
    const enginePool = new EnginePool({ createEngine, ...pool });
    const host = new PoolHost(enginePool, { locks: locks.as(`host-${generation}`), hostId: `h${generation}`, ...hostOptions });
    return { createEngine, pool: enginePool, host, name: `host-${generation}` };
  };
  let current = start();
  const scene = {
    locks,
    get host() {
      return current;
    },
    tab(name: string, options: { errorClasses?: ErrorClasses } = {}) {
      const presence = manualPresence({ visible: true, focused: true });
      const client = new PoolClient({
        connect: () => {
          const { port1, port2 } = new MessageChannel();
          ports.push(port1, port2);
          current.host.serve(port1);
          return port2;
        },
        locks: locks.as(name),
        presence,
        ...options,
      });
      return { client, presence, name };
    },
    /** The host dies: its ports close, its locks go; the next connect builds a new one. */
    kill() {
      const dead = current;
      current = start();
      for (const port of ports.splice(0)) port.close();
      locks.drop(dead.name);
      return dead;
    },
    close() {
      for (const port of ports.splice(0)) port.close();
    },
  };
  return scene;
}
