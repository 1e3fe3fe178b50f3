import type { ChatMessage, JobResult } from '@inkling/scheduler';
import { useMemo } from 'react';
import { type ChatOptions, type ChatState, ChatController } from './core/chatController.js';
import { useController } from './useController.js';

/** Options of `useChat`: the controller's, plus error-boundary opt-in. */
export interface UseChatOptions extends ChatOptions {
  /** Throw a reply's error to the nearest error boundary instead of returning it. Default `false`. */
  throwOnError?: boolean;
}

/** What `useChat` returns. */
export interface UseChatResult extends ChatState {
  /** Sends a user message (cutting short a reply still streaming) and streams the reply. Never rejects. */
  send(content: string | ChatMessage): Promise<JobResult>;
  /** Stops the reply; what it had said joins `messages`. */
  stop(): void;
  /** Cancels any reply and starts over from `messages` (default: `initialMessages`). */
  reset(messages?: readonly ChatMessage[]): void;
}

/**
 * A conversation: `messages` so far, the `reply` streaming now (at most one
 * render per frame), `send`, `stop`, `reset`. Unmounting cancels the reply.
 *
 * @example
 * const { messages, reply, status, send, stop } = useChat({ system: 'You are concise.' });
 * <form onSubmit={(e) => { e.preventDefault(); void send(draft); }}>...</form>
 * {messages.map((m, i) => <p key={i}>{String(m.content)}</p>)}
 * {reply && <p aria-busy>{reply}</p>}
 */
export function useChat(options: UseChatOptions = {}): UseChatResult {
  const [chat, state] = useController('useChat', options, ({ pool, scheduleFrame }, initial) => new ChatController(pool, initial, scheduleFrame));
  if (options.throwOnError && state.error) throw state.error;
  return useMemo(() => ({ ...state, send: chat.send, stop: chat.stop, reset: chat.reset }), [state, chat]);
}
