import type { ChatMessage, JobResult } from '@inkling/scheduler';
import { useMemo } from 'react';
import { type ChatOptions, ChatController } from './core/chatController.js';
import type { ChatState } from './core/chatState.js';
import { useController } from '../base/useController.js';

/** Options of `useChat`: the controller's, plus error-boundary opt-in. */
export interface UseChatOptions extends ChatOptions {
  /** Throw a reply's error to the nearest error boundary instead of returning it. Default `false`. */
  throwOnError?: boolean;
}

/** What `useChat` returns. */
export interface UseChatResult extends ChatState {
  /** Sends a user message (cutting short a reply still streaming, answering calls still waiting as cancelled) and streams the reply. Never rejects. */
  sendMessage(content: string | ChatMessage): Promise<JobResult>;
  /** Asks for the last reply again (the last assistant message is replaced). Throws with no user message to answer. */
  regenerate(): Promise<JobResult>;
  /** Stops the reply; what it had said joins `messages`. */
  stop(): void;
  /** Replaces the conversation (a list or a function of it), cancelling any reply; `setMessages([])` starts over. */
  setMessages(messages: readonly ChatMessage[] | ((current: readonly ChatMessage[]) => readonly ChatMessage[])): void;
  /** Lets the tool call with this id (the kit's, from `toolCalls`) run, with the arguments it showed. */
  approveToolCall(id: string): void;
  /** Declines a tool call that waits for approval; the model hears why. */
  denyToolCall(id: string, reason?: string): void;
  /** Gives the result of a call to a tool without `execute`. */
  addToolResult(id: string, output: unknown): void;
}

/**
 * A conversation, named as in the AI SDK: `messages` so far, the `reply`
 * streaming now (at most one render per frame), `sendMessage`, `stop`,
 * `regenerate`, `setMessages`. Unmounting cancels the reply.
 *
 * @example
 * const { messages, reply, status, sendMessage, stop } = useChat({ system: 'You are concise.' });
 * <form onSubmit={(e) => { e.preventDefault(); void sendMessage(draft); }}>...</form>
 * {messages.map((m, i) => <p key={i}>{String(m.content)}</p>)}
 * {reply && <p aria-busy>{reply}</p>}
 *
 * @example
 * // Tools: the model asks, the person approves, the result goes back, the model answers.
 * const chat = useChat({
 *   tools: { addEvent: { parameters: EventSchema, needsApproval: true, execute: (event) => calendar.add(event) } },
 * });
 * {chat.toolCalls.filter((c) => c.status === 'awaiting-approval').map((c) => (
 *   <button key={c.id} onClick={() => chat.approveToolCall(c.id)}>Add {String(c.args.title)}</button>
 * ))}
 */
export function useChat(options: UseChatOptions = {}): UseChatResult {
  const [chat, state] = useController(
    'useChat',
    options,
    ({ pool, scheduleFrame }, initial) => new ChatController(pool, initial, scheduleFrame),
  );
  if (options.throwOnError && state.error) throw state.error;
  return useMemo(
    () => ({
      ...state,
      sendMessage: chat.sendMessage,
      regenerate: chat.regenerate,
      stop: chat.stop,
      setMessages: chat.setMessages,
      approveToolCall: chat.approveToolCall,
      denyToolCall: chat.denyToolCall,
      addToolResult: chat.addToolResult,
    }),
    [state, chat],
  );
}
