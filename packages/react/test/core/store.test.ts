// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { Store } from '../../src/base/core/store.js';
import { flushMicrotasks, manualFrames } from './helpers.js';

/** A store of a list that changes in place and is copied only when read. */
class ListStore extends Store<readonly number[]> {
  readonly items: number[] = [];
  builds = 0;

  constructor(frames: ReturnType<typeof manualFrames>) {
    super([], frames.scheduleFrame);
  }

  push(n: number, urgency: 'now' | 'frame' = 'frame'): void {
    this.items.push(n);
    this.commitLazy(() => {
      this.builds += 1;
      return [...this.items];
    }, urgency);
  }

  replace(next: readonly number[]): void {
    this.commit(next, 'now');
  }
}

describe('Store.commitLazy', () => {
  it('builds the state once, when it is read, however many changes came before', async () => {
    const frames = manualFrames();
    const store = new ListStore(frames);
    let heard = 0;
    store.subscribe(() => (heard += 1));
    for (let i = 0; i < 100; i += 1) store.push(i);
    expect(store.builds).toBe(0);
    frames.tick();
    expect(heard).toBe(1);
    const first = store.getSnapshot();
    expect(first).toHaveLength(100);
    expect(store.getSnapshot()).toBe(first);
    expect(store.builds).toBe(1);
    store.push(100, 'now');
    await flushMicrotasks();
    expect(heard).toBe(2);
    expect(store.getSnapshot()).toHaveLength(101);
    expect(store.builds).toBe(2);
  });

  it('a commit replaces a pending build, which then never runs', async () => {
    const frames = manualFrames();
    const store = new ListStore(frames);
    store.push(1);
    const next = [7];
    store.replace(next);
    await flushMicrotasks();
    expect(store.getSnapshot()).toBe(next);
    expect(store.builds).toBe(0);
    expect(frames.pending).toBe(0);
  });
});

/** A store that records when its subscription starts and stops it. */
class LifecycleStore extends Store<number> {
  readonly events: string[] = [];

  constructor() {
    super(0);
  }

  protected override onStart(): void {
    this.events.push('start');
  }

  protected override onStop(): void {
    this.events.push('stop');
  }
}

describe('Store lifecycle', () => {
  it('starts on the first listener and stops a microtask after the last one leaves', async () => {
    const store = new LifecycleStore();
    const first = store.subscribe(() => {});
    const second = store.subscribe(() => {});
    expect(store.events).toEqual(['start']);
    first();
    await flushMicrotasks();
    expect(store.events).toEqual(['start']);
    second();
    second();
    expect(store.events).toEqual(['start']);
    await flushMicrotasks();
    expect(store.events).toEqual(['start', 'stop']);
  });

  it("never stops for StrictMode's unsubscribe and resubscribe in one task", async () => {
    const store = new LifecycleStore();
    store.subscribe(() => {})();
    store.subscribe(() => {});
    await flushMicrotasks();
    expect(store.events).toEqual(['start']);
  });
});
