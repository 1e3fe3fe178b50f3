import type { ChatMessage, JobResult } from '@inkling/scheduler';
import { useEffect, useMemo, useState } from 'react';
import { type ChatOptions, type ChatState, ChatController } from './core/chatController.js';
import { useInklingContext } from './poolContext.js';
import { useLatestCallback } from './useLatestCallback.js';
import { useStore } from './useStore.js';

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
  const { pool, scheduleFrame } = useInklingContext('useChat');
  const { system, initialMessages, params, priority, session, task, onFinish, throwOnError = false } = options;
  const finish = useLatestCallback((result: JobResult) => onFinish?.(result));
  const [chat] = useState(
    () => new ChatController(pool, { system, initialMessages, params, priority, session, task, onFinish: finish }, scheduleFrame),
  );
  const state = useStore(chat);
  useEffect(() => chat.mount(), [chat]);
  useEffect(() => {
    chat.setOptions({ system, initialMessages, params, priority, session, task, onFinish: finish });
  }, [chat, system, initialMessages, params, priority, session, task, finish]);
  if (throwOnError && state.error) throw state.error;
  return useMemo(() => ({ ...state, send: chat.send, stop: chat.stop, reset: chat.reset }), [state, chat]);
}
