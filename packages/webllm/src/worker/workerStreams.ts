/**
 * The streams the page opened on one engine worker, each stepped only when
 * the page pulls: on a lane (`laneEngine.ts`) where the lanes take the
 * request, else on WebLLM's own one-sequence path (with prefix reuse armed
 * for it). Interrupt and close reach a lane alone, or WebLLM's running
 * generation.
 */

import { type ChatCompletionChunk, type StreamingChatCompletionRequest } from '@inkling/scheduler';
import { isFinalChunk } from '@inkling/scheduler/engine';
import type { LaneStream, Lanes } from './laneEngine.js';
import type { PrefixReuse } from './prefixReuse.js';
import { webllmRequest } from './webllmRequest.js';
import type { WorkerMessage } from '../protocol.js';
import type { WebLLMEngineLike } from '../types.js';

/**
 * One stream the page opened. WebLLM's generator runs a step only when the
 * page pulls (one `next()` per `pull`), so the worker never runs ahead of
 * the page: a cancel finds at most the step in flight.
 */
interface StreamState {
  readonly request: object;
  /** WebLLM's stream, once the first pull started it. */
  iterator?: AsyncIterator<ChatCompletionChunk>;
  /** A `next()` is in flight. */
  stepping: boolean;
  /** The generation runs: started, and its last chunk was not the finish chunk. */
  live: boolean;
  /** The page asked it to stop (`interrupt`) or left it (`close`). */
  stopping: boolean;
  /** The page left: the stream is read to its end (so WebLLM's lock is freed) but nothing is sent. */
  closed: boolean;
  /** The stream runs on a lane (see `Lanes`), not on WebLLM's own path. */
  lane?: LaneStream;
  /** An `interactive` job's: on lanes its prefill goes before other new jobs'. */
  urgent: boolean;
}

/** What the streams use of the engine worker's host (read when used: a load replaces the lanes and the reuse). */
export interface StreamHost {
  /** The loaded engine; throws when none is. */
  loaded(): WebLLMEngineLike;
  /** The engine, loaded or loading, or `undefined`. */
  engine(): WebLLMEngineLike | undefined;
  lanes(): Lanes;
  reuse(): PrefixReuse;
  post(message: WorkerMessage): void;
  /** Answers call `rid` with the typed error for `reason`. */
  fail(rid: number, reason: unknown): void;
}

/** The worker's open streams, by call id. */
export class WorkerStreams {
  readonly #streams = new Map<number, StreamState>();
  readonly #host: StreamHost;

  constructor(host: StreamHost) {
    this.#host = host;
  }

  /** A `chat` call: the stream starts at its first pull. */
  open(rid: number, request: object, urgent: boolean): void {
    this.#streams.set(rid, {
      request,
      stepping: false,
      live: false,
      stopping: false,
      closed: false,
      urgent,
    });
  }

  /** The page wants the stream's next chunk. */
  pull(id: number): void {
    const state = this.#streams.get(id);
    if (!state || state.stepping || state.closed) return;
    void this.#advance(id, state);
  }

  /** One step for the page, or (once it left) every step to the end, unsent. */
  async #advance(id: number, state: StreamState): Promise<void> {
    state.stepping = true;
    try {
      for (;;) {
        const step = await this.#next(state);
        if (step.done) {
          this.#streams.delete(id);
          if (!state.closed) this.#host.post({ t: 'reply', rid: id });
          return;
        }
        if (!state.closed) {
          this.#host.post({ t: 'chunk', rid: id, chunk: step.value });
          return;
        }
      }
    } catch (reason) {
      this.#streams.delete(id);
      if (!state.closed) this.#host.fail(id, reason);
    } finally {
      state.stepping = false;
    }
  }

  async #next(state: StreamState): Promise<IteratorResult<ChatCompletionChunk>> {
    const engine = this.#host.loaded();
    if (!state.iterator) {
      // Stopped before it started: nothing ran, nothing to read.
      if (state.stopping) return { done: true, value: undefined };
      const asked = { ...(state.request as StreamingChatCompletionRequest), stream: true } as const;
      if (this.#host.lanes().refuses(asked) === undefined) {
        state.lane = this.#host.lanes().open(asked, { urgent: state.urgent });
        state.iterator = state.lane;
        state.live = true;
        return this.#read(state, state.iterator);
      }
      this.#host.reuse().arm();
      const request = webllmRequest(asked);
      const stream = (await engine.chat.completions.create(request)) as AsyncIterable<ChatCompletionChunk>;
      state.iterator = stream[Symbol.asyncIterator]();
      state.live = true;
    }
    if (state.lane) return this.#read(state, state.lane);
    // A stream the page left is read out by the worker alone: it stops the generation itself.
    if (state.closed && state.live) engine.interruptGenerate();
    const step = await this.#read(state, state.iterator);
    if (!step.done && step.value.usage) {
      const cached = this.#host.reuse().last?.cachedTokens;
      if (cached !== undefined) step.value.usage.cachedTokens = cached;
    }
    return step;
  }

  async #read(state: StreamState, iterator: AsyncIterator<ChatCompletionChunk>): Promise<IteratorResult<ChatCompletionChunk>> {
    const step = await iterator.next();
    state.live = !step.done && !isFinalChunk(step.value);
    return step;
  }

  /** The page asked the stream to stop (`interrupt`) or left it (`close`). */
  stop(id: number, close: boolean): void {
    const state = this.#streams.get(id);
    // Only a stream that is still open needs anything.
    if (!state) return;
    state.closed ||= close;
    state.stopping = true;
    if (!state.iterator) {
      // Never started: a close forgets it; an interrupt ends it at the next pull.
      if (close && !state.stepping) this.#streams.delete(id);
      return;
    }
    // A lane stops alone: the others go on. A close frees it at once.
    if (state.lane) {
      if (!close) return state.lane.interrupt();
      void state.lane.return();
      if (!state.stepping) this.#streams.delete(id);
      return;
    }
    // A running generation stops before its next step (the one in flight, if any, cannot be cut short).
    if (state.live) this.#host.engine()?.interruptGenerate();
    // Left between two steps: read it to the end so WebLLM's lock is released.
    if (close && !state.stepping) void this.#advance(id, state);
  }
}
