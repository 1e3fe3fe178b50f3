import { type ChatCompletionRequest, type ChatMessage, InklingError, type JobResult, type Pool, type Priority } from '@inkling/scheduler';
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
export interface ChatState extends Omit<CompletionState, 'completion'> {
  /** The conversation so far, without the system prompt; a finished reply is appended here. */
  readonly messages: readonly ChatMessage[];
  /** The assistant reply streaming now; `''` when none is. */
  readonly reply: string;
}

/** Options of a `ChatController` (and of `useChat`). */
export interface ChatOptions {
  /** A system prompt sent before the conversation. Default: none. */
  system?: string;
  /** The conversation to start from (read once, when the controller is built). Default: empty. */
  initialMessages?: readonly ChatMessage[];
  /** Extra request parameters (`temperature`, `max_tokens`...); the messages come from `sendMessage()`. Default: none. */
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
  | { type: 'set'; messages: readonly ChatMessage[] }
  | { type: 'regenerate'; messages: readonly ChatMessage[] };

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
    case 'set':
      return initial(action.messages);
    case 'regenerate':
      return { ...initial(action.messages), status: 'queued' };
  }
}

/**
 * A conversation over a `Pool`: `sendMessage()` appends a user message and
 * streams the assistant's reply, `stop()` cuts it short (keeping what it
 * said), `regenerate()` asks again, `setMessages()` replaces the
 * conversation. Streamed text reaches listeners at most once per frame.
 *
 * @example
 * const chat = new ChatController(pool, { system: 'You are terse.' });
 * await chat.sendMessage('What is WebGPU?');
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
  readonly sendMessage = (content: string | ChatMessage): Promise<JobResult> => {
    const message: ChatMessage = typeof content === 'string' ? { role: 'user', content } : content;
    this.#dispatch({ type: 'send', message });
    return this.#reply();
  };

  /**
   * Asks for the last reply again: cancels one streaming, drops the last
   * assistant message and streams a new one to the same conversation. Throws
   * an `InklingError` when there is no user message to answer. Bound.
   */
  readonly regenerate = (): Promise<JobResult> => {
    this.stop();
    const messages = [...this.state.messages];
    if (messages.at(-1)?.role === 'assistant') messages.pop();
    if (messages.at(-1)?.role !== 'user') {
      throw new InklingError('regenerate() found no user message to answer: send one with sendMessage() first.');
    }
    this.#dispatch({ type: 'regenerate', messages });
    return this.#reply();
  };

  /** Stops the reply streaming now; what it had said joins the conversation. Bound. */
  readonly stop = (): void => {
    if (this.#job.stop()) this.#dispatch({ type: 'stop' });
  };

  /**
   * Replaces the conversation (a list, or a function of the current one),
   * cancelling any reply; `setMessages([])` starts over. Bound.
   */
  readonly setMessages = (messages: readonly ChatMessage[] | ((current: readonly ChatMessage[]) => readonly ChatMessage[])): void => {
    this.#job.stop();
    this.#dispatch({ type: 'set', messages: typeof messages === 'function' ? messages(this.state.messages) : messages });
  };

  /** Streams the reply to the conversation as it is now. */
  #reply(): Promise<JobResult> {
    const { system, params, priority = 'high', session, task } = this.#options;
    const history = system ? [{ role: 'system' as const, content: system }, ...this.state.messages] : [...this.state.messages];
    return this.#job.start(this.#pool, { params: { ...params, messages: history }, priority, session, task }, {
      onText: (text) => this.#dispatch({ type: 'reply', text }),
      onEnd: (result) => this.#dispatch({ type: 'finish', result }),
      // The latest callback, not the one of when the job started.
      onFinish: (result) => this.#options.onFinish?.(result),
    });
  }

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
