/**
 * The baseline: what a hook written without Inkling's coalescing does, a
 * `useState` update for every streamed chunk.
 */
import { usePool } from '@inkling/react';
import { useCallback, useState } from 'react';

export function useNaiveCompletion(): { text: string; complete: (prompt: string) => void } {
  const pool = usePool();
  const [text, setText] = useState('');
  const complete = useCallback(
    (prompt: string) => {
      setText('');
      void pool.submit({
        priority: 'high',
        params: { messages: [{ role: 'user', content: prompt }] },
        onChunk: (chunk) => {
          const delta = chunk.choices[0]?.delta.content ?? '';
          if (delta) setText((previous) => previous + delta);
        },
      });
    },
    [pool],
  );
  return { text, complete };
}
