import {
  type ChatCompletionRequest,
  type ChatMessage,
  type CompletionUsage,
  type InklingError,
  type JobResult,
  ObjectValidationError,
  type Pool,
  type Priority,
  InklingError as InklingErrorClass,
  InvalidSchemaError,
} from '@inkling/scheduler';
import { MAX_JSON_DEPTH, jsonDepth } from '@inkling/scheduler/engine';
import { toRequest } from '../../base/core/toRequest.js';
import { type StreamStatus, finishedState } from '../../base/core/streamState.js';
import type { FrameScheduler } from '../../base/core/frameScheduler.js';
import { Store } from '../../base/core/store.js';
import { StreamedJob } from '../../base/core/streamedJob.js';
import { type ObjectSchema, type ResolvedSchema, resolveObjectSchema } from './objectSchema.js';
import { parsePartialJson } from './partialJson.js';

/** A value on its way: every property optional, all the way down. */
export type DeepPartial<T> = T extends readonly (infer U)[]
  ? DeepPartial<U>[]
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/** The state of one structured-output job. */
export interface ObjectState<T> {
  /**
   * The object so far. While streaming it only grows: a string gets longer, a
   * number or boolean appears once whole and never changes, properties and
   * items are added, never taken back. Once `done`, the validated object.
   */
  readonly object: DeepPartial<T> | undefined;
  readonly status: StreamStatus;
  /**
   * Why `status` is `'error'`: an `ObjectValidationError` (with `path` and
   * `value`) when the answer does not match the schema, an `InvalidSchemaError`
   * for a schema no engine can enforce, `UnsupportedConstraintError` when the
   * engine cannot constrain its output, or the job's own error.
   */
  readonly error: InklingError | null;
  /** The model's answer as text. */
  readonly text: string;
  readonly usage: CompletionUsage | null;
}

/** Options of an `ObjectController` (and of `useObject`). */
export interface ObjectOptions<S extends ObjectSchema = ObjectSchema> {
  /** What the object must look like: a JSON Schema, or a zod / arktype / valibot schema (see `ObjectSchema`). */
  schema: S;
  /**
   * `'constrained'`: the engine constrains its decoding to the schema (every
   * engine of the kit can, or the job ends at once with
   * `UnsupportedConstraintError`). `'prompt'`: the schema is only described in
   * the prompt and the answer checked afterwards, for engines that cannot
   * constrain. Default `'constrained'`.
   */
  mode?: 'constrained' | 'prompt';
  /**
   * The system message sent before the input; `false` sends none. Default: a
   * sentence asking for one JSON value that follows the schema, with the schema.
   */
  system?: string | false;
  /** Scheduler band. Default `'high'` (a person asked and is waiting). */
  priority?: Priority;
  /** Pool session: a later job of the same session cancels this one. Default: none. */
  session?: string;
  /** Pool task. Default: the session, else each job its own. */
  task?: string;
  /** May be interrupted by interactive work (ghost text); it then ends `'cancelled'`. Default `false`. */
  preemptible?: boolean;
  /** Called once a job ends, with the validated object or the error. Default: none. */
  onFinish?: (event: { object: unknown; error: InklingError | null; result: JobResult }) => void;
}

const IDLE: ObjectState<never> = { object: undefined, status: 'idle', error: null, text: '', usage: null };

function systemPrompt(schema: ResolvedSchema): string {
  return `Answer with one JSON value and nothing else. It must follow this JSON Schema:\n${JSON.stringify(schema.jsonSchema)}`;
}

/**
 * One structured-output job at a time over a `Pool`: `submit()` asks for an
 * object that follows the schema (cancelling the job before), the state shows
 * it growing as it streams (at most once a frame), and the final object is
 * validated. An external store; `useObject` binds it.
 *
 * @example
 * const extract = new ObjectController(pool, { schema: { type: 'object', properties: { title: { type: 'string' } } } });
 * extract.subscribe(() => render(extract.getSnapshot().object));
 * await extract.submit('Give this note a title: ...');
 */
export class ObjectController<T = unknown> extends Store<ObjectState<T>> {
  readonly #pool: Pool;
  #options: ObjectOptions;
  readonly #job = new StreamedJob();
  /** The last shown object as JSON, so an unchanged parse is not a new state. */
  #shown = '';
  /** Counts submits, stops and clears: a validation that finishes after one of them is dropped. */
  #generation = 0;
  /** Whether the finished answer is being validated now (a validator may take its time). */
  #validating = false;

  constructor(pool: Pool, options: ObjectOptions, scheduleFrame?: FrameScheduler) {
    super(IDLE, scheduleFrame);
    this.#pool = pool;
    this.#options = options;
  }

  /** Replaces the options; a running job keeps the ones it started with. */
  setOptions(options: ObjectOptions): void {
    this.#options = options;
  }

  /**
   * Asks for the object: `input` is the user message (a string), or a whole
   * request whose messages are sent after the system message. Cancels the
   * job before. Resolves with the job's result; never rejects. Bound.
   */
  readonly submit = (input: string | ChatCompletionRequest): Promise<JobResult | undefined> => {
    const options = this.#options;
    let schema: ResolvedSchema;
    try {
      schema = resolveObjectSchema(options.schema);
    } catch (error) {
      this.#job.stop();
      this.#generation += 1;
      const failure = error instanceof InklingErrorClass ? error : new InvalidSchemaError('', String(error), { cause: error });
      this.commit({ ...IDLE, status: 'error', error: failure }, 'now');
      return Promise.resolve(undefined);
    }
    const request = toRequest(input);
    const system = options.system ?? systemPrompt(schema);
    const messages: ChatMessage[] = system === false ? request.messages : [{ role: 'system', content: system }, ...request.messages];
    const params: ChatCompletionRequest = { ...request, messages };
    if (options.mode !== 'prompt')
      params.response_format = { type: 'json_schema', json_schema: { name: 'object', schema: schema.jsonSchema, strict: true } };
    this.#shown = '';
    this.#validating = false;
    const generation = ++this.#generation;
    this.commit({ ...IDLE, status: 'queued' }, 'now');
    const { priority = 'high', session, task, preemptible } = options;
    return this.#job.start(
      this.#pool,
      { params, priority, session, task, preemptible },
      {
        onText: (text) => this.#streamed(text),
        onEnd: (result) => void this.#finished(result, schema, generation),
      },
    );
  };

  /** Cancels the running job; `object` keeps what had streamed. Bound. */
  readonly stop = (): void => {
    this.#generation += 1;
    const validating = this.#validating;
    this.#validating = false;
    if (this.#job.stop() || validating) this.commit({ ...this.state, status: 'cancelled' }, 'now');
  };

  /** Cancels the running job and goes back to `idle`. Bound. */
  readonly clear = (): void => {
    this.#job.stop();
    this.#generation += 1;
    this.#validating = false;
    this.#shown = '';
    this.commit(IDLE, 'now');
  };

  protected override onStop(): void {
    this.dispose();
  }

  /** Cancels the running job and any pending notification. */
  dispose(): void {
    this.#job.stop();
    this.#generation += 1;
    this.#validating = false;
    this.cancelPendingFrame();
  }

  #streamed(text: string): void {
    let object: unknown;
    try {
      object = parsePartialJson(text).value;
    } catch {
      // Not JSON (an unconstrained model wandered off): the text still shows;
      // the end of the job says what was wrong.
      this.commit({ ...this.state, status: 'streaming', text }, 'frame');
      return;
    }
    const shown = object === undefined ? '' : JSON.stringify(object);
    const changed = shown !== this.#shown;
    this.#shown = shown;
    this.commit({ ...this.state, status: 'streaming', text, object: changed ? (object as DeepPartial<T>) : this.state.object }, 'frame');
  }

  async #finished(result: JobResult, schema: ResolvedSchema, generation: number): Promise<void> {
    const ended = finishedState(result);
    const base = { ...this.state, text: result.text, usage: ended.usage };
    const event = (object: unknown, error: InklingError | null) => this.#options.onFinish?.({ object, error, result });
    if (ended.status !== 'done') {
      this.commit({ ...base, status: ended.status, error: ended.error }, 'now');
      event(undefined, ended.error);
      return;
    }
    const fail = (error: ObjectValidationError, object?: unknown) => {
      this.commit({ ...base, object: object as DeepPartial<T> | undefined, status: 'error', error }, 'now');
      event(object, error);
    };
    const depth = jsonDepth(result.text);
    if (depth > MAX_JSON_DEPTH) {
      fail(
        unreadable(
          result.text,
          `The model's answer nests objects and arrays ${depth} levels deep; the kit reads at most ${MAX_JSON_DEPTH}.`,
        ),
      );
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(result.text);
    } catch (cause) {
      const error = unreadable(
        result.text,
        `The model's answer is not JSON${result.finishReason === 'length' ? ' (it reached max_tokens before the object was finished: allow more tokens)' : ''}.`,
        { cause },
      );
      this.commit({ ...base, status: 'error', error }, 'now');
      event(undefined, error);
      return;
    }
    this.#validating = true;
    // A validator that throws or rejects leaves the answer unchecked: an error, never a hook left streaming.
    const check = await schema.validate(parsed).catch((cause: unknown) => ({
      problem: { path: '', value: parsed, message: `its validator failed (${cause instanceof Error ? cause.message : String(cause)})` },
    }));
    if (generation !== this.#generation) return; // submitted again, stopped or cleared while validating
    this.#validating = false;
    if ('problem' in check) {
      const { path, value, message } = check.problem;
      fail(
        new ObjectValidationError({
          path,
          value,
          text: result.text,
          message: `The answer ${path ? `at ${path} ` : ''}does not match the schema: ${message}`,
        }),
        parsed,
      );
      return;
    }
    this.commit({ ...base, object: check.value as DeepPartial<T>, status: 'done', error: null }, 'now');
    event(check.value, null);
  }
}

/** The error for an answer the kit cannot read as JSON: the whole text is the value, at path `''`. */
function unreadable(text: string, message: string, options?: { cause?: unknown }): ObjectValidationError {
  return new ObjectValidationError({ path: '', value: text, text, message }, options);
}
