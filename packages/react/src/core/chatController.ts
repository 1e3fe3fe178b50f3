import type {
  ChatCompletionRequest,
  ChatMessage,
  Pool,
  JobResult,
  Priority,
} from '@inkling/scheduler';
import { type CompletionState, finishedState } from './completionController.js';
import type { FrameScheduler } from './frameScheduler.js';
import { Store } from './store.js';
import { StreamedJob } from './streamedJob.js';

/**
 * A chat request without its messages. (`Omit` would not do: the request's
 * index signature would swallow every named field.)
 */
export type ChatRequestParams = Partial<ChatCompletionRequest> & { messages?: never };

/** The state of a conversation. */
export interface ChatState extends Omit<CompletionState, 'text'> {
  /** The conversation so far, without the system prompt; a finished reply is appended here. */
  readonly messages: readonly ChatMessage[];
  /** The assistant reply streaming now; `''` when none is. */
  readonly reply: string;
}

/** Options of a `ChatController` (and of `useChat`). */
export interface ChatOptions {
  /** A system prompt sent before the conversation. Default: none. */
  system?: string;
  /** The conversation to start from (read once, and again by `reset()`). Default: empty. */
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
}

type Action =
  | { type: 'send'; message: ChatMessage }
  | { type: 'reply'; text: string }
  | { type: 'finish'; result: JobResult }
  | { type: 'stop' }
  | { type: 'reset'; messages: readonly ChatMessage[] };

function initial(messages: readonly ChatMessage[]): ChatState {
  return { messages, reply: '', status: 'idle', error: null, finishReason: null, usage: null };
}

/** Appends a reply that has text; an empty one leaves the conversation as it was. */
function withReply(messages: readonly ChatMessage[], reply: string): readonly ChatMessage[] {
  return reply ? [...messages, { role: 'assistant', content: reply }] : messages;
}

function reduce(state: ChatState, action: Action): ChatState {
  switch (action.type) {
    case 'send': {
      // A reply cut short by this message keeps what it had said.
      const messages = withReply(state.messages, state.status === 'streaming' ? state.reply : '');
      return { ...initial([...messages, action.message]), status: 'queued' };
    }
    case 'reply':
      return { ...state, reply: action.text, status: 'streaming' };
    case 'finish': {
      const end = finishedState(action.result);
      const keep = end.status === 'error' ? '' : action.result.text;
      return { ...state, ...end, messages: withReply(state.messages, keep), reply: '' };
    }
    case 'stop':
      return { ...state, messages: withReply(state.messages, state.reply), reply: '', status: 'cancelled', finishReason: 'abort' };
    case 'reset':
      return initial(action.messages);
  }
}

/**
 * A conversation over an `Pool`: `send()` appends a user message and
 * streams the assistant's reply, `stop()` cuts it short (keeping what it
 * said), `reset()` starts over. Streamed text reaches listeners at most once
 * per frame.
 *
 * @example
 * const chat = new ChatController(pool, { system: 'You are terse.' });
 * await chat.send('What is WebGPU?');
 * chat.getSnapshot().messages.at(-1); // { role: 'assistant', content: '...' }
 */
export class ChatController extends Store<ChatState> {
  readonly #pool: Pool;
  #options: ChatOptions;
  readonly #job = new StreamedJob();

  constructor(pool: Pool, options: ChatOptions = {}, scheduleFrame?: FrameScheduler) {
    super(initial(options.initialMessages ?? []), scheduleFrame);
    this.#pool = pool;
    this.#options = options;
  }

  /** Replaces the options; a reply already streaming keeps the ones it started with. */
  setOptions(options: ChatOptions): void {
    this.#options = options;
  }

  /**
   * Appends a user message (a string or a message) and streams the reply,
   * cutting short a reply still streaming. Resolves with the job's result;
   * never rejects. Bound.
   */
  readonly send = (content: string | ChatMessage): Promise<JobResult> => {
    const message: ChatMessage = typeof content === 'string' ? { role: 'user', content } : content;
    const { system, params, priority = 'high', session, task } = this.#options;
    this.#dispatch({ type: 'send', message });
    const history = system ? [{ role: 'system' as const, content: system }, ...this.state.messages] : [...this.state.messages];
    return this.#job.start(this.#pool, { params: { ...params, messages: history }, priority, session, task }, {
      onText: (text) => this.#dispatch({ type: 'reply', text }),
      onEnd: (result) => this.#dispatch({ type: 'finish', result }),
      // The latest callback, not the one of when the job started.
      onFinish: (result) => this.#options.onFinish?.(result),
    });
  };

  /** Stops the reply streaming now; what it had said joins the conversation. Bound. */
  readonly stop = (): void => {
    if (this.#job.stop()) this.#dispatch({ type: 'stop' });
  };

  /** Cancels any reply and starts over from `messages` (default: `initialMessages`). Bound. */
  readonly reset = (messages?: readonly ChatMessage[]): void => {
    this.#job.stop();
    this.#dispatch({ type: 'reset', messages: messages ?? this.#options.initialMessages ?? [] });
  };

  /** The last listener left (after StrictMode's rehearsal, for good): stop. */
  protected override onStop(): void {
    this.dispose();
  }

  /** Stops the reply and any pending notification. */
  dispose(): void {
    this.stop();
    this.cancelPendingFrame();
  }

  #dispatch(action: Action): void {
    this.commit(reduce(this.state, action), action.type === 'reply' ? 'frame' : 'now');
  }
}
