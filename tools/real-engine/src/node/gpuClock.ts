/**
 * The GPU's SM clock and utilisation while the bench runs, read from
 * `nvidia-smi` every 100 ms, so each measured run carries the clock it ran
 * at. On the H200 the driver lowers the clock whenever the GPU idles between
 * kernels (throttle reason "GPU idle"): one engine's launch-bound decode
 * leaves it idle most of the time, and its clock then wanders between 345
 * and 1980 MHz from run to run. Where `nvidia-smi` is missing (a CPU), every
 * window reads NaN.
 */
import { spawn } from 'node:child_process';

interface Sample {
  at: number;
  mhz: number;
  util: number;
}

export interface ClockWindow {
  /** Mean SM clock over the window, MHz. */
  mhz: number;
  /** Mean GPU utilisation over the window, percent. */
  util: number;
}

export interface GpuClock {
  /** The samples taken between two `performance.now()` readings. */
  window(from: number, to: number): ClockWindow;
  stop(): void;
}

export function sampleGpuClock(intervalMs = 100): GpuClock {
  const samples: Sample[] = [];
  let child: ReturnType<typeof spawn> | undefined;
  try {
    child = spawn('nvidia-smi', ['--query-gpu=clocks.sm,utilization.gpu', '--format=csv,noheader,nounits', `-lms`, String(intervalMs)], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    child.on('error', () => undefined);
    let rest = '';
    child.stdout?.on('data', (data: Buffer) => {
      const at = performance.now();
      const lines = (rest + data.toString()).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        const [mhz, util] = line.split(',').map((x) => Number(x.trim()));
        if (Number.isFinite(mhz) && Number.isFinite(util)) samples.push({ at, mhz: mhz!, util: util! });
      }
    });
  } catch {
    child = undefined;
  }
  return {
    window(from, to) {
      const inside = samples.filter((s) => s.at >= from && s.at <= to);
      const mean = (pick: (s: Sample) => number) =>
        inside.length === 0 ? Number.NaN : inside.reduce((sum, s) => sum + pick(s), 0) / inside.length;
      return { mhz: mean((s) => s.mhz), util: mean((s) => s.util) };
    },
    stop() {
      child?.kill();
    },
  };
}

/** Pearson's correlation of two equal-length series (NaN where undefined). */
export function correlation(xs: number[], ys: number[]): number {
  const pairs = xs.map((x, i) => [x, ys[i]!] as const).filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
  if (pairs.length < 3) return Number.NaN;
  const mx = pairs.reduce((s, [x]) => s + x, 0) / pairs.length;
  const my = pairs.reduce((s, [, y]) => s + y, 0) / pairs.length;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (const [x, y] of pairs) {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) ** 2;
    syy += (y - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}
