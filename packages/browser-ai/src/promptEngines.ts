import { type CallHandle, CallsInFlight, chunkText } from '@inkling/scheduler/engine';
import {
  type ChatCompletionChunk,
  type ChatMessage,
  type CreateEngine,
  type Engine,
  type EngineCallOptions,
  InvalidJobError,
  type PoolTimers,
  type StreamingChatCompletionRequest,
  UnsupportedConstraintError,
} from '@inkling/scheduler';
import { apiAvailability, assertUsable } from './apiAvailability.js';
import { type BuiltInAIGlobals, type LanguageModelApi, type LanguageModelMessage, builtInGlobals } from './builtInApis.js';
import { createWithDownload } from './createWithDownload.js';
import { PROMPT_RULES, checkOptions } from './engineOptions.js';
import { contextLimits, contextRoom, measureInput } from './contextLimits.js';
import { InputTooLongError } from './errors.js';
import { type OpenedSession, PromptSessions } from './promptSessions.js';
import { type PiecesEnd, chunk, chunkId, pieceChunks, usageChunk } from './streamChunks.js';
import { DEFAULT_DOWNLOAD_STALL_MS } from './translatorEngines.js';

/** Options of `promptEngines`. */
export interface PromptEnginesOptions {
  /**
   * Passed to `LanguageModel.availability()` and `create()` as they are, e.g.
   * `{ expectedInputs: [{ type: 'text', languages: ['en'] }] }`. Default: none.
   */
  createOptions?: Record<string, unknown>;
  /** Sessions kept for job sessions (a conversation, a ghost-text field), least recently used dropped first. Default `4`. */
  maxSessions?: number;
  /**
   * How long the model's download may go without progress before the load
   * fails with `BuiltInDownloadStalledError`, in ms (`Infinity`: for ever).
   * Default `30_000`.
   */
  downloadStallMs?: number;
  /** Where the APIs are found. Default: `globalThis`, read when the engine loads. */
  globals?: BuiltInAIGlobals;
  /** Timers for the stall bound. Default: the global ones. */
  timers?: PoolTimers;
}

/**
 * An engine over Chrome's Prompt API, as `promptEngines()` builds it.
 *
 * @example
 * const engine = (await promptEngines()(0, () => {})) as PromptEngine;
 * engine.keptSessions; // 0
 */
export interface PromptEngine extends Engine {
  readonly concurrency: 1;
  /** Sessions kept for job sessions now. */
  readonly keptSessions: number;
}

/**
 * Engines over Chrome's Prompt API (`LanguageModel`, Gemini Nano in Chrome):
 * chat, completion and ghost text jobs, streamed. The load asks
 * `availability()` and fails with `BuiltInAIUnavailableError` where the API
 * is absent, blocked or `'unavailable'`; a `'downloadable'` model downloads
 * then (only then: a load is the person asking), with its progress as the
 * load's. A job's `session` keeps its own clone of the system prompt's
 * session, continued with `append()` when the next request extends it.
 * `max_tokens` is kept by stopping the stream; `response_format` `{ type:
 * 'json_schema', json_schema: { schema } }` becomes `responseConstraint`.
 * Temperature and other sampling settings are not the page's to set here
 * and are ignored.
 *
 * @example
 * import { EnginePool } from '@inkling/scheduler';
 * import { promptEngines } from '@inkling/browser-ai';
 *
 * const pool = new EnginePool({ size: 1, createEngine: promptEngines() });
 * await pool.load(); // when the person asks: may download Gemini Nano
 */
export function promptEngines(options: PromptEnginesOptions = {}): CreateEngine {
  checkOptions(options, PROMPT_RULES, 'promptEngines');
  const createOptions = options.createOptions ?? {};
  return async (_index, onProgress, { signal } = { signal: new AbortController().signal }) => {
    const globals = builtInGlobals(options.globals);
    assertUsable('LanguageModel', await apiAvailability(globals, 'LanguageModel', createOptions));
    const api = globals.LanguageModel as LanguageModelApi;
    const root = await createWithDownload((monitored) => api.create({ ...createOptions, ...monitored }), {
      what: "Chrome's built-in model",
      signal,
      onProgress,
      stallMs: options.downloadStallMs ?? DEFAULT_DOWNLOAD_STALL_MS,
      timers: options.timers,
    });
    onProgress({ progress: 1, text: "Chrome's built-in model is ready." });
    return promptEngine(new PromptSessions(api, root, createOptions, options.maxSessions ?? 4));
  };
}

function promptEngine(sessions: PromptSessions): PromptEngine {
  const running = new CallsInFlight();
  const run = async function* (
    request: StreamingChatCompletionRequest,
    options: EngineCallOptions | undefined,
  ): AsyncGenerator<ChatCompletionChunk> {
    const call = running.open(options?.signal);
    const key = options?.job?.session;
    const { system, messages } = toPromptMessages(request.messages);
    let opened: OpenedSession | undefined;
    const end: ReplyEnd = { finish: 'stop', pieces: 0, reply: '' };
    try {
      opened = await sessions.open(system, messages, key, call.signal);
      // Where the browser cannot measure (or names no limit), its own error is the check: see browserError.
      let needed = await measureInput(opened.session, opened.input, call.signal);
      // An unknown need or room (Infinity) is no reason to refuse.
      if ((needed ?? 0) > contextRoom(opened.session) && opened.continued) {
        // The kept conversation is full: start over from the system prompt with the whole request.
        opened.session.destroy();
        opened = await sessions.fresh(system, messages, call.signal);
        needed = await measureInput(opened.session, opened.input, call.signal);
      }
      const room = contextRoom(opened.session);
      if (needed !== undefined && needed > room) {
        throw new InputTooLongError(
          `The prompt needs ${needed} tokens but Chrome's built-in model has ${room} of its ${String(contextLimits(opened.session).window)} left: shorten the text or the conversation.`,
          needed,
          room,
        );
      }
      yield* promptReply(opened, needed, request, call, end);
    } finally {
      call.release();
      // Only a reply that ran to its natural end leaves a context worth continuing.
      if (opened) sessions.close(opened, key, { ok: end.finish === 'stop' && !call.signal.aborted, system, messages, reply: end.reply });
    }
  };
  return {
    concurrency: 1,
    get keptSessions() {
      return sessions.kept;
    },
    chat: {
      completions: {
        create: async (request, options) => {
          toPromptMessages(request.messages); // bad messages fail the call now, not on the first read
          return run(request, options);
        },
      },
    },
    interruptGenerate() {
      running.interrupt();
    },
    unload: () => sessions.destroyAll(),
  };
}

/** How a reply ended, and its text (what a kept conversation continues from). */
interface ReplyEnd extends PiecesEnd {
  reply: string;
}

/**
 * Streams the reply to an opened session's input (`needed` tokens of it, where
 * the browser measured), then the finish chunk and the usage: the prompt's
 * tokens, and the reply's, as pieces or as the context grew, whichever is more.
 */
async function* promptReply(
  opened: OpenedSession,
  needed: number | undefined,
  request: StreamingChatCompletionRequest,
  call: CallHandle,
  end: ReplyEnd,
): AsyncGenerator<ChatCompletionChunk> {
  const constraint = constraintOf(request);
  const before = contextLimits(opened.session).used;
  const id = chunkId('prompt');
  const model = 'chrome-built-in';
  try {
    const stream = opened.session.promptStreaming(opened.input, { signal: call.signal, ...constraint });
    for await (const piece of pieceChunks(stream, { id, model, controller: call, maxTokens: request.max_tokens }, end)) {
      end.reply += chunkText(piece);
      yield piece;
    }
  } catch (error) {
    throw browserError(error, constraint.responseConstraint !== undefined);
  }
  yield chunk(id, model, '', end.finish);
  const after = contextLimits(opened.session).used;
  const prompt = opened.cachedTokens + (needed ?? 0);
  const grown = before === undefined || after === undefined ? 0 : after - before - (needed ?? 0);
  const completion = Math.max(end.pieces, grown);
  yield usageChunk(id, model, {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    cachedTokens: opened.cachedTokens,
  });
}

/**
 * The browser's own refusal as the kit's typed error: a `QuotaExceededError`
 * (an input the pre-check could not measure, or that grew past the context
 * meanwhile) as `InputTooLongError`, a `NotSupportedError` of a constrained
 * prompt as `UnsupportedConstraintError`. Anything else as it is.
 */
function browserError(error: unknown, constrained: boolean): unknown {
  const { name, message, requested, quota } = (error ?? {}) as { name?: unknown; message?: unknown; requested?: unknown; quota?: unknown };
  if (name === 'QuotaExceededError') {
    return new InputTooLongError(
      `Chrome's built-in model refused the prompt as too long (${String(message)}): shorten the text or the conversation.`,
      typeof requested === 'number' ? requested : NaN,
      typeof quota === 'number' ? quota : NaN,
      { cause: error },
    );
  }
  if (name === 'NotSupportedError' && constrained) {
    return new UnsupportedConstraintError(
      `Chrome's built-in model cannot constrain its answer to this schema (${String(message)}): simplify the schema, or use useObject's mode: 'prompt'.`,
      { cause: error },
    );
  }
  return error;
}

/** A JSON Schema asked for in OpenAI's `response_format`, as the Prompt API's `responseConstraint`. */
function constraintOf(request: StreamingChatCompletionRequest): { responseConstraint?: unknown } {
  const format = request.response_format as { type?: string; json_schema?: { schema?: unknown }; schema?: unknown } | undefined;
  if (format?.type === 'json_schema' && format.json_schema?.schema !== undefined) return { responseConstraint: format.json_schema.schema };
  return {};
}

/** OpenAI messages as the Prompt API's: the leading system message apart, text content only (internal). */
export function toPromptMessages(messages: readonly ChatMessage[]): { system: string; messages: LanguageModelMessage[] } {
  let system = '';
  const out: LanguageModelMessage[] = [];
  messages.forEach((message, index) => {
    const content = textOf(message.content, index);
    if (message.role === 'system') {
      if (out.length > 0)
        throw new InvalidJobError(
          `Chrome's built-in model takes a system message only first; message ${index} is a system message after others.`,
        );
      system = system ? `${system}\n\n${content}` : content;
      return;
    }
    if (message.role !== 'user' && message.role !== 'assistant') {
      throw new InvalidJobError(
        `Chrome's built-in model takes system, user and assistant messages; message ${index} has role "${message.role}".`,
      );
    }
    out.push({ role: message.role, content });
  });
  if (out.at(-1)?.role !== 'user') throw new InvalidJobError("Chrome's built-in model needs the last message to be the user's.");
  return { system, messages: out };
}

function textOf(content: ChatMessage['content'], index: number): string {
  if (typeof content === 'string') return content;
  if (content === null) return '';
  const parts = content.map((part) => part as { type?: unknown; text?: unknown });
  if (parts.every((part) => part.type === 'text' && typeof part.text === 'string')) return parts.map((part) => part.text).join('');
  throw new InvalidJobError(`Chrome's built-in model is given text only here; message ${index} has other content.`);
}
