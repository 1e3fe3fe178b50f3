import type { ChatMessage, JobResult, Priority } from '@inkling/scheduler';
import { useEffect, useMemo, useState } from 'react';
import { type ChatRequestParams, type ChatState, ChatController } from './core/chatController.js';
import { useInklingContext } from './poolContext.js';
import { useLatestCallback } from './useLatestCallback.js';
import { useStore } from './useStore.js';

/** Options of `useChat`. */
export interface UseChatOptions {
  /** A system prompt sent before the conversation. Default: none. */
  system?: string;
  /** The conversation to start from (read on mount and by `reset()`). Default: empty. */
  initialMessages?: readonly ChatMessage[];
  /** Extra request parameters (`temperature`, `max_tokens`...); the messages come from `send()`. Default: none. */
  params?: ChatRequestParams;
  /** Scheduler band. Default `'high'`. */
  priority?: Priority;
  /** Pool session; a later job of the same session cancels the reply. Default: none. */
  session?: string;
  /** Pool task. Default: the session, else each reply its own. */
  task?: string;
  /** Called with each reply's job result, whatever its status. Default: none. */
  onFinish?: (result: JobResult) => void;
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
