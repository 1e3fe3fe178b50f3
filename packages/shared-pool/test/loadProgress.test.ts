import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InklingError } from '@inkling/scheduler';
import { CallCancelledError } from '@inkling/scheduler/engine';
import { run, sharedScene, useFakeClock } from './helpers.js';

beforeEach(useFakeClock);
afterEach(() => vi.useRealTimers());

describe("a tab's load progress", () => {
  it('reaches the tab whose load() opened the connection', async () => {
    const scene = sharedScene({ loadMs: 100 }, { size: 1 });
    const tab = scene.tab('a');
    const reports: number[] = [];
    const loading = tab.client.load((report) => reports.push(report.progress));
    await run(150);
    expect(await loading).toBe(1);
    expect(reports).toEqual([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]);
    expect(scene.host.createEngine.builds.get(0)).toBe(1);
    scene.close();
  });
});

describe('a PoolClient closed while its load waits', () => {
  it('rejects the pending load() with a typed cancel error instead of leaving it unanswered, and every later call too', async () => {
    const scene = sharedScene({ loadMs: 100 }, { size: 1 });
    const tab = scene.tab('a');
    const reports: number[] = [];
    const loading = tab.client.load((report) => reports.push(report.progress));
    await run(35);
    tab.client.close();
    const error = await loading.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CallCancelledError);
    expect(error).toBeInstanceOf(InklingError);
    expect((error as CallCancelledError).kind).toBe('cancelled');
    const heard = reports.length;
    await run(150);
    // Nothing more reaches the closed tab.
    expect(reports).toHaveLength(heard);
    await expect(tab.client.load()).rejects.toBeInstanceOf(CallCancelledError);
    scene.close();
  });
});
