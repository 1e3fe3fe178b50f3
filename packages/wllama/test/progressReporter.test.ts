import { describe, expect, it } from 'vitest';
import { ProgressReporter } from '../src/progressReporter.js';
import type { WllamaLoadProgress } from '../src/types.js';

describe('ProgressReporter', () => {
  it('reports bytes, then loading, then ready, with a fraction that never goes back', () => {
    const reports: WllamaLoadProgress[] = [];
    const r = new ProgressReporter(
      'm.gguf',
      (p) => reports.push(p),
      () => 0,
    );
    r.bytes(0, 1000);
    r.bytes(500, 1000);
    r.bytes(400, 1000); // a restart of the download must not move the bar back
    r.bytes(1000, 1000);
    r.loading();
    r.ready();
    const fractions = reports.map((p) => p.progress);
    expect(fractions).toEqual([0, 0.45, 0.45, 0.9, 0.9, 1]);
    expect(reports.map((p) => p.phase)).toEqual(['fetch', 'fetch', 'fetch', 'fetch', 'load', 'ready']);
    expect(reports.at(-1)).toMatchObject({ loadedBytes: 1000, totalBytes: 1000 });
  });

  it('without a Content-Length, counts bytes and fills the bar when the download ends', () => {
    const reports: WllamaLoadProgress[] = [];
    const r = new ProgressReporter(
      'm.gguf',
      (p) => reports.push(p),
      () => 0,
    );
    r.bytes(300, 0);
    r.loading();
    expect(reports.map((p) => [p.progress, p.totalBytes])).toEqual([
      [0, 0],
      [0.9, 300],
    ]);
    expect(reports[0]?.text).toMatch(/0\.0 MB$/);
  });
});
