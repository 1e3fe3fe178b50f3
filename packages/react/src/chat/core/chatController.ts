import { type ChatCompletionRequest, type ChatMessage, InklingError, type JobResult, type Pool, type Priority } from '@inkling/scheduler';
import { jobResult } from '@inkling/scheduler/engine';
import { type ChatAction, type ChatState, initialChat, reduceChat } from './chatState.js';
import { type ChatTool, type ToolCallState, isPending, startCalls, toolMessages, toolsParam } from './chatTools.js';
import type { FrameScheduler } from '../../base/core/frameScheduler.js';
import { Store } from '../../base/core/store.js';
import { StreamedJob } from '../../base/core/streamedJob.js';

/**
 * A chat request without its messages. (`Omit` would not do: the request's
 * index signature would swallow every named field.)
 */
export type ChatRequestParams = Partial<ChatCompletionRequest> & { messages?: never };

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
  /**
   * Tools the model may call, by name (on engines whose model supports tool
   * calling). A reply that calls tools shows them in `toolCalls`; once every
   * call has its result (run, approved and run, denied, or given with
   * `addToolResult`) the results are sent back and the model answers again.
   * Default: none.
   */
  tools?: Readonly<Record<string, ChatTool>>;
  /** The most rounds of tool calls one message may lead to before the chat stops asking. Default `5`. */
  maxToolRounds?: number;
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
  /** Rounds of tool calls since the last message the person sent. */
  #rounds = 0;
  /** Aborts the tools running now; replaced each round. */
  #tools: AbortController | undefined;
  /** Tool calls named so far: each call's id is the kit's own, never the model's. */
  #calls = 0;
  /** Makes this conversation's call ids unlike those of another conversation (stored ones included). */
  readonly #callPrefix = `call_${Math.random().toString(36).slice(2, 10)}_`;

  constructor(pool: Pool, options: ChatOptions = {}, scheduleFrame?: FrameScheduler) {
    super(initialChat(options.initialMessages ?? []), scheduleFrame);
    this.#pool = pool;
    this.#options = options;
  }

  /** Replaces the options; a reply already streaming keeps the ones it started with. */
  setOptions(options: ChatOptions): void {
    this.#options = options;
  }

  /**
   * Appends a user message (a string or a message) and streams the reply,
   * cutting short a reply still streaming; tool calls still waiting are
   * answered as cancelled first, so the model reads every call answered.
   * Resolves with the job's result; never rejects. Bound.
   */
  readonly sendMessage = (content: string | ChatMessage): Promise<JobResult> => {
    const message: ChatMessage = typeof content === 'string' ? { role: 'user', content } : content;
    this.#endTools();
    this.#rounds = 0;
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
    this.#rounds = 0;
    this.#dispatch({ type: 'regenerate', messages });
    return this.#reply();
  };

  /** Stops the reply streaming now; what it had said joins the conversation. Bound. */
  readonly stop = (): void => {
    const tools = this.state.status === 'calling-tools';
    this.#endTools();
    if (this.#job.stop() || tools) this.#dispatch({ type: 'stop' });
  };

  /** Lets the call with this id (the kit's own, never the model's) run, with the frozen arguments it showed. Bound. */
  readonly approveToolCall = (id: string): void => {
    const call = this.#waiting(id, 'awaiting-approval');
    if (!call) return;
    const tool = this.#options.tools?.[call.name];
    this.#dispatch({ type: 'call', id, change: { status: tool?.execute ? 'running' : 'awaiting-result' } });
    this.#advance();
  };

  /** Declines a call that waits for approval; the model hears it was declined (and why). Bound. */
  readonly denyToolCall = (id: string, reason?: string): void => {
    if (!this.#waiting(id, 'awaiting-approval')) return;
    this.#dispatch({ type: 'call', id, change: { status: 'denied', ...(reason ? { error: reason } : {}) } });
    this.#advance();
  };

  /** Gives the result of a call to a tool without `execute`. Bound. */
  readonly addToolResult = (id: string, output: unknown): void => {
    if (!this.#waiting(id, 'awaiting-result')) return;
    this.#dispatch({ type: 'call', id, change: { status: 'done', output } });
    this.#advance();
  };

  #waiting(id: string, status: ToolCallState['status']): ToolCallState | undefined {
    return this.state.status === 'calling-tools'
      ? this.state.toolCalls.find((call) => call.id === id && call.status === status)
      : undefined;
  }

  /** A reply ended: tool calls to handle, or the end of the turn. */
  #ended(result: JobResult): void {
    const { tools } = this.#options;
    if (result.status !== 'done' || result.finishReason !== 'tool_calls' || !result.toolCalls?.length || !tools) {
      this.#dispatch({ type: 'finish', result });
      return;
    }
    this.#rounds += 1;
    this.#tools = new AbortController();
    const calls = startCalls(result.toolCalls, tools, () => `${this.#callPrefix}${(this.#calls += 1)}`);
    this.#dispatch({ type: 'tools', result, calls });
    this.#advance();
  }

  /** Starts the calls that may run; once none is pending, sends the results back. */
  #advance(): void {
    const controller = this.#tools;
    if (!controller) return;
    for (const call of this.state.toolCalls) {
      if (call.status !== 'running' || this.#started.has(call.id)) continue;
      this.#started.add(call.id);
      const execute = this.#options.tools?.[call.name]?.execute;
      void Promise.resolve()
        .then(() => execute?.(call.args, { signal: controller.signal, toolCallId: call.id }))
        .then(
          (output) => ({ status: 'done' as const, output }),
          (error: unknown) => ({ status: 'error' as const, error: error instanceof Error ? error.message : String(error) }),
        )
        .then((change) => {
          if (controller !== this.#tools) return; // stopped, or a new message came
          this.#dispatch({ type: 'call', id: call.id, change });
          this.#advance();
        });
    }
    if (this.state.toolCalls.some(isPending)) return;
    this.#endTools();
    const last = this.#rounds >= (this.#options.maxToolRounds ?? 5);
    this.#dispatch({ type: 'answered', messages: toolMessages(this.state.toolCalls), last });
    if (!last) void this.#reply();
  }

  /** Ids of the calls of this round already started. */
  #started = new Set<string>();

  #endTools(): void {
    this.#tools?.abort();
    this.#tools = undefined;
    this.#started = new Set();
  }

  /**
   * Replaces the conversation (a list, or a function of the current one),
   * cancelling any reply; `setMessages([])` starts over. Bound.
   */
  readonly setMessages = (messages: readonly ChatMessage[] | ((current: readonly ChatMessage[]) => readonly ChatMessage[])): void => {
    this.#job.stop();
    this.#endTools();
    this.#dispatch({ type: 'set', messages: typeof messages === 'function' ? messages(this.state.messages) : messages });
  };

  /** Streams the reply to the conversation as it is now. */
  #reply(): Promise<JobResult> {
    const { system, params, priority = 'high', session, task } = this.#options;
    const history = system ? [{ role: 'system' as const, content: system }, ...this.state.messages] : [...this.state.messages];
    const { tools } = this.#options;
    let offered: ReturnType<typeof toolsParam> | undefined;
    try {
      offered = tools && Object.keys(tools).length > 0 ? toolsParam(tools) : undefined;
    } catch (cause) {
      // A tool the model could not be offered: the reply ends with that error, and the chat settles.
      const now = Date.now();
      const error = cause instanceof InklingError ? cause : new InklingError(String(cause), { cause });
      const result = jobResult({ id: '', status: 'error', error, submittedAt: now, finishedAt: now });
      this.#dispatch({ type: 'finish', result });
      this.#options.onFinish?.(result);
      return Promise.resolve(result);
    }
    const request = { ...params, messages: history, ...(offered ? { tools: offered } : {}) };
    return this.#job.start(
      this.#pool,
      { params: request, priority, session, task },
      {
        onText: (text) => this.#dispatch({ type: 'reply', text }),
        onEnd: (result) => this.#ended(result),
        // The latest callback, not the one of when the job started.
        onFinish: (result) => this.#options.onFinish?.(result),
      },
    );
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

  #dispatch(action: ChatAction): void {
    this.commit(reduceChat(this.state, action), action.type === 'reply' ? 'frame' : 'now');
  }
}
