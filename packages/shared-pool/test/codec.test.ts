import {
  EngineCrashedError,
  EngineError,
  InklingError,
  InvalidJobError,
  InvalidSchemaError,
  LoadCancelledError,
  ModelFetchError,
  ModelUnreadableError,
  OutOfMemoryError,
  WorkerCrashedError,
} from '@inkling/scheduler';
import { describe, expect, it } from 'vitest';
import { HostLostError, decodeError, documentPresence, encodeError, tabPriority } from '../src/index.js';

describe('errors across the wire', () => {
  it('keep class, message, plain own fields and cause; drop what cannot cross', () => {
    const cause = new TypeError('bad token');
    const error = Object.assign(new EngineError('the engine failed', { cause }), { status: 500, detail: { a: [1, 'b'] }, handle: () => 1 });
    const wire = structuredClone(encodeError(error));
    const back = decodeError(wire);
    expect(back).toBeInstanceOf(EngineError);
    expect(back).toMatchObject({ name: 'EngineError', message: 'the engine failed', status: 500, detail: { a: [1, 'b'] } });
    expect('handle' in back).toBe(false);
    expect(back.cause).toBeInstanceOf(TypeError);
    expect((back.cause as Error).message).toBe('bad token');
  });

  it("rebuild the scheduler's internal EngineStalledError as an EngineCrashedError with its name and fatal flag", () => {
    const stalled = Object.assign(new EngineCrashedError('silent'), { name: 'EngineStalledError' });
    const back = decodeError(encodeError(stalled));
    expect(back).toBeInstanceOf(EngineCrashedError);
    expect(back).toMatchObject({ name: 'EngineStalledError', fatal: true });
  });

  it.each([
    [
      'a WebLLM out of memory',
      () => new OutOfMemoryError('The GPU ran out of memory.', { device: 'gpu', model: 'Qwen', vramRequiredMB: 944 }),
    ],
    ['a wllama out of memory', () => new OutOfMemoryError('Out of memory.', { device: 'cpu', model: 'tiny.gguf' })],
    ['a failed download', () => new ModelFetchError('HTTP 404', { device: 'cpu', model: 'm', url: 'https://x.test/m.gguf', status: 404 })],
    ['an unreadable file', () => new ModelUnreadableError('bad shard', { device: 'gpu', model: 'Qwen' })],
    ['a cancelled built-in load', () => new LoadCancelledError('Cancelled.', { device: 'browser', model: 'the translator' })],
    ['a crashed worker', () => new WorkerCrashedError('gone', { device: 'cpu' })],
    ['a bad schema', () => new InvalidSchemaError('properties.a', 'no such type')],
  ])('rebuild %s as its one class, with its device, kind and fields, without being told', (_what, make) => {
    const error = make();
    const back = decodeError(structuredClone(encodeError(error)));
    expect(back).toBeInstanceOf(error.constructor);
    // Fields left undefined do not cross; every other own field comes back as it was.
    const fields = Object.fromEntries(Object.entries(error).filter(([, value]) => value !== undefined));
    expect(back).toMatchObject({ ...fields, name: error.name, message: error.message });
    expect((back as InklingError).device).toBe(error.device);
  });

  it('keep two engines’ out of memory one class, told apart by device, across the port', () => {
    const [gpu, cpu] = [
      new OutOfMemoryError('a', { device: 'gpu', model: 'a' }),
      new OutOfMemoryError('b', { device: 'cpu', model: 'b' }),
    ].map((e) => decodeError(structuredClone(encodeError(e))));
    expect(gpu?.constructor).toBe(cpu?.constructor);
    expect([(gpu as OutOfMemoryError).device, (cpu as OutOfMemoryError).device]).toEqual(['gpu', 'cpu']);
    expect(decodeError(encodeError(new InvalidSchemaError('', 'x')))).toBeInstanceOf(InvalidJobError);
  });

  it('turn an unknown class into an InklingError that keeps the name, and anything thrown into an error', () => {
    class Odd extends Error {
      override name = 'Odd';
    }
    const back = decodeError(encodeError(new Odd('strange')));
    expect(back).toBeInstanceOf(InklingError);
    expect(back.name).toBe('Odd');
    expect(decodeError(encodeError('just a string')).message).toBe('just a string');
    expect(decodeError(encodeError(new HostLostError('gone')))).toBeInstanceOf(HostLostError);
  });
});

describe('tabPriority', () => {
  const focused = { visible: true, focused: true };
  const unfocused = { visible: true, focused: false };
  const hidden = { visible: false, focused: false };
  it.each([
    ['interactive', focused, 'interactive'],
    ['interactive', unfocused, 'high'],
    ['interactive', hidden, 'high'],
    ['high', unfocused, 'high'],
    ['high', hidden, 'normal'],
    [undefined, focused, 'normal'],
    [undefined, hidden, 'low'],
    ['low', hidden, 'low'],
  ] as const)('%s from a tab %o runs as %s', (asked, presence, band) => {
    expect(tabPriority(asked, presence)).toBe(band);
  });

  it('passes an unknown band on for the pool to refuse', () => {
    expect(tabPriority('urgent' as never, hidden)).toBe('urgent');
  });
});

describe('documentPresence', () => {
  it('reads visibility and focus from the document and hears their changes', () => {
    const doc = new EventTarget() as EventTarget & { visibilityState: string; hasFocus(): boolean };
    const win = new EventTarget();
    let focused = true;
    doc.visibilityState = 'visible';
    doc.hasFocus = () => focused;
    const presence = documentPresence(doc, win);
    const heard: Array<{ visible: boolean; focused: boolean }> = [];
    const stop = presence.subscribe(() => heard.push(presence.get()));
    focused = false;
    win.dispatchEvent(new Event('blur'));
    doc.visibilityState = 'hidden';
    doc.dispatchEvent(new Event('visibilitychange'));
    stop();
    win.dispatchEvent(new Event('focus'));
    expect(heard).toEqual([
      { visible: true, focused: false },
      { visible: false, focused: false },
    ]);
  });

  it('counts a place without a document (a worker, a server) as visible and focused', () => {
    expect(documentPresence(undefined, undefined).get()).toEqual({ visible: true, focused: true });
  });
});
