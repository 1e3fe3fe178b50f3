/**
 * The scheduling a pool falls back to with `schedule: 'fifo'`: one queue in
 * arrival order, as if there were no scheduler. It exists to be compared
 * with the priority scheduling (`schedulingPolicy.ts`), e.g. by a demo's
 * switch, so a person can feel what the bands and preemption buy.
 *
 * The oldest queued job starts on the first engine with a free lane, whatever
 * its band or task; nothing is preempted and no lane is kept for another task.
 * What the engine itself cannot do at once stays so: a job that runs beside
 * the lanes (`offLane`) waits while its engine runs another.
 */
import { lanesTaken, runsOffLane, type PolicyJob, type PolicyQueue, type PolicySlot } from './schedulingPolicy.js';

export type { PoolSchedule } from './types.js';
import type { PoolSchedule } from './types.js';

/** The schedules `EnginePoolOptions.schedule` accepts. */
export const POOL_SCHEDULES: readonly PoolSchedule[] = ['priority', 'fifo'];

/**
 * The oldest queued job and the first slot with a free lane (its session's
 * engine when that one has room), or `undefined` when either is missing.
 */
export function pickFirstCome<J extends PolicyJob & { readonly order?: number | undefined }, S extends PolicySlot<J>>(
  queue: PolicyQueue<J>,
  slots: readonly S[],
): { job: J; slot: S } | undefined {
  if (!slots.some((slot) => slot.ready && lanesTaken(slot) < slot.concurrency)) return undefined;
  // Each task's oldest job is a head, so the oldest head is the oldest job.
  const job = queue
    .heads()
    .reduce<J | undefined>((first, head) => (first && (first.order ?? 0) <= (head.order ?? 0) ? first : head), undefined);
  if (!job) return undefined;
  const open = slots.filter((slot) => slot.ready && lanesTaken(slot) < slot.concurrency && !(job.offLane === true && runsOffLane(slot)));
  if (open.length === 0) return undefined;
  return { job, slot: open.find((slot) => slot.index === job.preferredEngine) ?? (open[0] as S) };
}
