import { PRIORITY_ORDER, type Priority } from '@inkling/scheduler';
import type { Presence } from './presence.js';

/**
 * The band a tab's job runs in on the shared host, from the band it asked for
 * (`'normal'` when none) and the tab's presence at submit time:
 *
 * | tab                 | interactive | high   | normal | low |
 * | ------------------- | ----------- | ------ | ------ | --- |
 * | visible and focused | interactive | high   | normal | low |
 * | visible, not focused| high        | high   | normal | low |
 * | hidden              | high        | normal | low    | low |
 *
 * So the focused tab's interactive jobs outrank everyone's, and only they
 * may preempt; a hidden tab's jobs drop a band. The band is fixed when the
 * job is submitted: a tab that is hidden later does not re-rank its queued
 * jobs (the scheduler keeps no handle to move a queued job between bands),
 * its next jobs get the new band. An unknown priority is passed on as it
 * is, for the pool to refuse.
 *
 * @example
 * tabPriority('interactive', { visible: true, focused: false }); // 'high'
 * tabPriority('normal', { visible: false, focused: false }); // 'low'
 */
export function tabPriority(priority: Priority | undefined, presence: Presence): Priority | undefined {
  const asked = priority ?? 'normal';
  const rank = PRIORITY_ORDER.indexOf(asked);
  if (rank < 0) return priority;
  if (presence.visible && presence.focused) return asked;
  if (presence.visible) return asked === 'interactive' ? 'high' : asked;
  return PRIORITY_ORDER[Math.min(rank + 1, PRIORITY_ORDER.length - 1)];
}
