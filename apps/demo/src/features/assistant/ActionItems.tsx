import { useObject } from '@inkling/react';
import { useEffect } from 'react';

/** What the model is asked for: the note's action items, each with its owner when the note names one. */
const ACTIONS = {
  type: 'object',
  properties: {
    items: {
      type: 'array',
      maxItems: 4,
      items: {
        type: 'object',
        properties: { task: { type: 'string', maxLength: 60 }, owner: { type: 'string', maxLength: 24 } },
        required: ['task'],
      },
    },
  },
  required: ['items'],
} as const;

/** Quiet time after the last keystroke before the note is read again. */
const SETTLE_MS = 800;

/**
 * The note's action items, extracted live with `useObject` on the same pool
 * as the suggestions: low priority and preemptible, so a keystroke's
 * suggestion always goes first, and asked again once typing pauses.
 */
export function ActionItems({ note, enabled }: { note: string; enabled: boolean }) {
  const { object, status, error, submit } = useObject({ schema: ACTIONS, priority: 'low', preemptible: true, session: 'action-items' });
  useEffect(() => {
    if (!enabled || !note.trim()) return;
    const timer = setTimeout(() => {
      void submit({
        messages: [
          {
            role: 'system',
            content: 'List the action items in the user\u2019s note: each a short task, with its owner if the note names one.',
          },
          { role: 'user', content: note },
        ],
      });
    }, SETTLE_MS);
    return () => clearTimeout(timer);
  }, [note, enabled, submit]);
  // While it streams, the object is partial: items and their fields arrive one by one.
  const items = ((object as { items?: Array<{ task?: string; owner?: string } | undefined> } | undefined)?.items ?? []).filter(
    (item) => item?.task,
  );
  return (
    <section className="side-panel action-items" aria-labelledby="actions-heading" data-status={status}>
      <h2 id="actions-heading">
        Action items <span className="muted">(low priority, preemptible)</span>
      </h2>
      {/* A box of one height whatever it holds, so an answer arriving moves nothing below. */}
      <div className="side-panel-body" tabIndex={0}>
        {error ? (
          <p className="field-problem">{error.message}</p>
        ) : items.length > 0 ? (
          <ul>
            {items.map((item, index) => (
              // The list is rebuilt whole by each answer: a place is its identity.
              // oxlint-disable-next-line react/no-array-index-key
              <li key={index}>
                {item?.task}
                {item?.owner ? <span className="muted"> · {item.owner}</span> : null}
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">
            {enabled ? (status === 'idle' ? 'Read from the note when you pause typing.' : 'Reading the note…') : 'Waits for an engine.'}
          </p>
        )}
      </div>
    </section>
  );
}
