import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// Testing Library cleans up by itself only where the runner has globals.
afterEach(() => cleanup());

// Testing Library's async wrapper (used by user-event) drains with a
// `setTimeout(0)` and advances fake timers only through a global `jest`.
// Point that at Vitest's clock so user-event works under `vi.useFakeTimers()`.
Object.assign(globalThis, { jest: { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) } });
