import { type JobSpec, usePool } from '@inkling/react';
import { useEffect } from 'react';

/** One job a story submits, `at` milliseconds after the pool is ready. */
export interface ScriptedJob {
  at: number;
  spec: JobSpec;
}

const say = (content: string) => ({ messages: [{ role: 'user' as const, content }] });

/**
 * A chat job for a script: a prompt the simulated engine answers.
 *
 * @example
 * job(0, { id: 'ghost-1', session: 'editor', priority: 'interactive' })
 */
export function job(at: number, spec: Omit<JobSpec, 'params'> & { prompt?: string }): ScriptedJob {
  const { prompt = 'Tell me something.', ...rest } = spec;
  return { at, spec: { ...rest, params: say(prompt) } as JobSpec };
}

/**
 * Submits a script of jobs once the pool has loaded, so a story can show the
 * scheduler doing something. Renders nothing; unmounting stops the script.
 *
 * @example
 * <JobDriver script={[job(0, { id: 'a' }), job(300, { id: 'b', priority: 'interactive' })]} />
 */
export function JobDriver({ script }: { script: readonly ScriptedJob[] }) {
  const pool = usePool();
  useEffect(() => {
    const timers: ReturnType<typeof setTimeout>[] = [];
    const controller = new AbortController();
    let cancelled = false;
    void pool.load().then(() => {
      if (cancelled) return;
      for (const { at, spec } of script) {
        timers.push(setTimeout(() => void pool.submit({ ...spec, signal: controller.signal }), at));
      }
    });
    return () => {
      cancelled = true;
      for (const timer of timers) clearTimeout(timer);
      controller.abort();
    };
  }, [pool, script]);
  return null;
}
