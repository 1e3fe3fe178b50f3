import { checkDuration } from '@inkling/scheduler/engine';
import { useEffect, useState } from 'react';
import { ghostTextareaWords } from './ghostTextareaMessages.js';
import type { GhostTextareaMessages } from './ghostTextareaTypes.js';
import { useAnnouncement } from './useAnnouncement.js';

/** What `useGhostWords` reads: the suggestion in view and whether it is settled, the error, and whether the textarea has the focus. */
export interface GhostWordsInput {
  readonly suggestion: string;
  readonly settled: boolean;
  readonly error: Error | null;
  readonly focused: boolean;
}

/**
 * The words of a textarea with ghost text: the live region's announcement
 * (the settled suggestion, read once after `announceDelayMs`; how to accept it
 * is said with the first suggestion after the focus comes, and kept while that
 * one shows), `read()` to hear it again at once, and the error line's message.
 * Throws `InvalidOptionError` for a bad `announceDelayMs`.
 *
 * @example
 * const { announcement, read, errorMessage } = useGhostWords({ messages, announceDelayMs: 700 }, { suggestion, settled, error, focused });
 */
export function useGhostWords(
  own: { readonly messages?: Partial<GhostTextareaMessages>; readonly announceDelayMs: number },
  { suggestion, settled, error, focused }: GhostWordsInput,
): { readonly announcement: string; readonly read: () => void; readonly errorMessage: string } {
  checkDuration(own.announceDelayMs, '<GhostTextarea> "announceDelayMs"');
  const [toldWith, setToldWith] = useState<string | null>(null);
  const tellHow = toldWith === null || toldWith === suggestion;
  const { spoken, errorMessage } = ghostTextareaWords(own.messages, suggestion, settled, error, tellHow);
  const [announcement, read] = useAnnouncement(spoken, own.announceDelayMs);
  useEffect(() => {
    if (!focused) setToldWith(null);
    else if (announcement) setToldWith((told) => told ?? suggestion);
  }, [focused, announcement, suggestion]);
  return { announcement, read, errorMessage };
}
