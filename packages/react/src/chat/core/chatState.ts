import type { ChatMessage, JobResult } from '@inkling/scheduler';
import { type ToolCallState, askedMessage, isPending, toolMessages } from './chatTools.js';
import { type CompletionState, type StreamStatus, finishedState } from '../../base/core/streamState.js';

/**
 * Where a conversation is: a reply's `StreamStatus`, or `'calling-tools'`
 * while the tool calls of a reply wait for approval, run, or wait for
 * `addToolResult` (see `toolCalls`).
 */
export type ChatStatus = StreamStatus | 'calling-tools';

/** The state of a conversation. */
export interface ChatState extends Omit<CompletionState, 'completion' | 'status'> {
  readonly status: ChatStatus;
  /** The conversation so far, without the system prompt; a finished reply is appended here. */
  readonly messages: readonly ChatMessage[];
  /** The assistant reply streaming now; `''` when none is. */
  readonly reply: string;
  /** The tool calls of the latest reply that asked for any (empty otherwise). */
  readonly toolCalls: readonly ToolCallState[];
}

/** What happens to a conversation; `reduceChat` is the one place its state changes. */
export type ChatAction =
  | { type: 'send'; message: ChatMessage }
  | { type: 'reply'; text: string }
  | { type: 'finish'; result: JobResult }
  | { type: 'stop' }
  | { type: 'set'; messages: readonly ChatMessage[] }
  | { type: 'regenerate'; messages: readonly ChatMessage[] }
  | { type: 'tools'; result: JobResult; calls: readonly ToolCallState[] }
  | { type: 'call'; id: string; change: Partial<ToolCallState> }
  | { type: 'answered'; messages: readonly ChatMessage[]; last: boolean };

/** A conversation of `messages` with nothing under way. */
export function initialChat(messages: readonly ChatMessage[]): ChatState {
  return { messages, reply: '', status: 'idle', error: null, finishReason: null, usage: null, toolCalls: [] };
}

/** Appends a reply that has text; an empty one leaves the conversation as it was. */
function withReply(messages: readonly ChatMessage[], reply: string): readonly ChatMessage[] {
  return reply ? [...messages, { role: 'assistant', content: reply }] : messages;
}

/**
 * The conversation with the calls still pending answered as cancelled, in
 * order, so every call the model asked for has its answer before anything
 * else is said.
 */
function answerPending(state: ChatState): { messages: readonly ChatMessage[]; toolCalls: readonly ToolCallState[] } {
  if (state.status !== 'calling-tools') return { messages: state.messages, toolCalls: state.toolCalls };
  const toolCalls = state.toolCalls.map((call) => (isPending(call) ? { ...call, status: 'cancelled' as const } : call));
  return { messages: [...state.messages, ...toolMessages(toolCalls)], toolCalls };
}

/** The conversation after `action`: pure (no pool, no timers). */
export function reduceChat(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case 'send': {
      // A reply cut short by this message keeps what it had said; calls waiting are answered first.
      const messages = withReply(answerPending(state).messages, state.status === 'streaming' ? state.reply : '');
      return { ...initialChat([...messages, action.message]), status: 'queued' };
    }
    case 'reply':
      return { ...state, reply: action.text, status: 'streaming' };
    case 'finish': {
      const end = finishedState(action.result);
      const keep = end.status === 'error' ? '' : action.result.text;
      return { ...state, ...end, messages: withReply(state.messages, keep), reply: '' };
    }
    case 'stop': {
      // Tool calls cut short are answered as cancelled, so the conversation stays one a model can read.
      const { messages, toolCalls } = answerPending(state);
      return { ...state, messages: withReply(messages, state.reply), reply: '', status: 'cancelled', finishReason: 'abort', toolCalls };
    }
    case 'set':
      return initialChat(action.messages);
    case 'regenerate':
      return { ...initialChat(action.messages), status: 'queued' };
    case 'tools': {
      const { result } = action;
      const asked = askedMessage(result.text, result.toolCalls ?? [], action.calls);
      return {
        ...state,
        ...finishedState(result),
        status: 'calling-tools',
        messages: [...state.messages, asked],
        reply: '',
        toolCalls: action.calls,
      };
    }
    case 'call':
      return { ...state, toolCalls: state.toolCalls.map((call) => (call.id === action.id ? { ...call, ...action.change } : call)) };
    case 'answered':
      return { ...state, messages: [...state.messages, ...action.messages], status: action.last ? 'done' : 'queued' };
  }
}
