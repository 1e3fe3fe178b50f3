import { EnginePool, usePool } from '@inkling/react';
import { useId, useState } from 'react';

/**
 * "First come, first served": turns the pool's priority scheduling off
 * (`EnginePool.setSchedule('fifo')`), so a keystroke's suggestion waits
 * behind every translation item queued before it, and on again. Only a pool
 * in this page can be switched; a shared one says so.
 */
export function ScheduleSwitch() {
  const pool = usePool();
  const id = useId();
  const local = pool instanceof EnginePool;
  const [fifo, setFifo] = useState(local && pool.schedule === 'fifo');
  const toggle = (on: boolean) => {
    if (!local) return;
    pool.setSchedule(on ? 'fifo' : 'priority');
    setFifo(on);
  };
  return (
    <div className="schedule-switch">
      <input id={id} type="checkbox" checked={fifo} disabled={!local} onChange={(event) => toggle(event.target.checked)} />
      <label htmlFor={id}>
        First come, first served <span className="muted">(the scheduler&apos;s priority off: suggestions wait behind the translation)</span>
      </label>
    </div>
  );
}
