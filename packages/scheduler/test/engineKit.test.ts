import { describe, expect, it } from 'vitest';
import { EngineCrashedError, EngineLoadError, InklingError, InvalidJobError } from '../src/index.js';
import {
  chunkText,
  decodeError,
  encodeError,
  isAbortSignal,
  isFinalChunk,
  jobResult,
  messageMatcher,
  streamChunk,
  usageChunk,
} from '../src/engine.js';

/** Node's `vm`, reached through the running Node: the scheduler's types know no Node. */
const { runInNewContext } = (
  globalThis as unknown as { process: { getBuiltinModule(id: 'node:vm'): { runInNewContext(code: string): unknown } } }
).process.getBuiltinModule('node:vm');

describe('the engine kit', () => {
  it('tells Inkling errors by their marker, also one rebuilt with no class to rebuild it as', () => {
    const rebuilt = decodeError(encodeError(new EngineLoadError('no room')), {}, Error);
    expect(rebuilt).not.toBeInstanceOf(InklingError);
    expect(InklingError.isInstance(rebuilt)).toBe(false);
    const typed = decodeError(structuredClone(encodeError(new EngineCrashedError('gone'))), { EngineCrashedError });
    expect(InklingError.isInstance(typed)).toBe(true);
    expect(typed).toMatchObject({ name: 'EngineCrashedError', kind: 'crashed', phase: 'run', retryable: true, fatal: true });
    // An object of another realm that carries the registry-wide marker on its prototype counts; a look-alike without it does not.
    const foreign = runInNewContext(
      "const p = {}; Object.defineProperty(p, Symbol.for('inkling.error'), { value: true }); Object.create(p)",
    );
    expect(InklingError.isInstance(foreign)).toBe(true);
    expect(InklingError.isInstance({ name: 'InklingError', kind: 'unknown' })).toBe(false);
    expect(InklingError.isInstance(null)).toBe(false);
  });

  it('gives every error a kind, a phase where the scheduler knows it, and keeps them across the wire', () => {
    expect(new InvalidJobError('x')).toMatchObject({ kind: 'invalid', retryable: false });
    expect(new EngineLoadError('x')).toMatchObject({ kind: 'unknown', phase: 'load' });
    const wire = structuredClone(encodeError(new EngineLoadError('x', { cause: 'TypeError: Failed to fetch' })));
    expect(wire).toEqual({
      name: 'EngineLoadError',
      message: 'x',
      fields: { kind: 'unknown', phase: 'load', retryable: false },
      cause: { name: 'TypeError', message: 'Failed to fetch' },
    });
  });

  it('builds results one way: interrupted jobs say abort and carry no error; unset fields are left out', () => {
    const error = new InvalidJobError('bad');
    expect(
      jobResult({
        id: 'a',
        status: 'preempted',
        text: 'par',
        submittedAt: 1,
        finishedAt: 2,
        finishReason: 'stop',
        error,
        cancelReason: 'cancel',
      }),
    ).toEqual({
      id: 'a',
      status: 'preempted',
      text: 'par',
      submittedAt: 1,
      finishedAt: 2,
      finishReason: 'abort',
    });
    expect(jobResult({ id: 'b', status: 'error', submittedAt: 1, finishedAt: 1, error, usage: undefined })).toEqual({
      id: 'b',
      status: 'error',
      text: '',
      submittedAt: 1,
      finishedAt: 1,
      error,
    });
    expect(jobResult({ id: 'c', status: 'cancelled', cancelReason: 'abort', submittedAt: 0, finishedAt: 0 })).toMatchObject({
      cancelReason: 'abort',
      finishReason: 'abort',
    });
  });

  it('builds and reads chunks', () => {
    const meta = { id: 's', model: 'm', created: 7 };
    const chunk = streamChunk(meta, { role: 'assistant', content: 'Hi' }, null);
    expect(chunk).toEqual({
      id: 's',
      object: 'chat.completion.chunk',
      created: 7,
      model: 'm',
      choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' }, finish_reason: null, logprobs: null }],
    });
    expect(chunkText(chunk)).toBe('Hi');
    expect(chunkText(usageChunk(meta, { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }))).toBe('');
    expect(chunkText({ id: 'x', choices: [{ delta: { content: null }, finish_reason: 'stop' }] })).toBe('');
    expect(chunkText('garbage' as never)).toBe('');
    expect(
      [
        chunk,
        streamChunk(meta, { content: '' }, 'stop'),
        usageChunk(meta, { prompt_tokens: 1, completion_tokens: 0, total_tokens: 1 }),
      ].map(isFinalChunk),
    ).toEqual([false, true, true]);
  });

  it("matches one protocol's messages and nothing else on the port", () => {
    const isMine = messageMatcher<{ type: 'chunk'; id: number }>('type', ['chunk', 'done'], 'number');
    expect(isMine({ type: 'chunk', id: 1 })).toBe(true);
    expect(isMine({ type: 'chunk', id: '1' })).toBe(false);
    expect(isMine({ kind: 'return', uuid: 'x' })).toBe(false);
    expect(isMine({ type: 'toString', id: 1 })).toBe(false);
    expect(isMine(undefined)).toBe(false);
  });

  it('knows an AbortSignal by its shape, so one from another realm counts', () => {
    expect(isAbortSignal(new AbortController().signal)).toBe(true);
    const foreign = runInNewContext('({ aborted: false, addEventListener() {}, removeEventListener() {} })');
    expect(foreign instanceof AbortSignal).toBe(false);
    expect(isAbortSignal(foreign)).toBe(true);
    expect(isAbortSignal('signal')).toBe(false);
    expect(isAbortSignal(undefined)).toBe(false);
  });
});
