// @vitest-environment node
import type { StreamingChatCompletionRequest } from '@inkling/scheduler';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChatController } from '../../src/core/chatController.js';
import { engineCalls, fakePool, words } from './helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const echo = (request: StreamingChatCompletionRequest) => `You said ${String(request.messages.at(-1)?.content)}`;

describe('ChatController', () => {
  it('sends the system prompt and the whole conversation, and appends each reply', async () => {
    const { pool, createEngine } = fakePool({ reply: echo, tokenMs: 5 });
    await pool.load();
    const chat = new ChatController(pool, { system: 'Be brief.', params: { temperature: 0.5 } });
    const first = chat.send('hi');
    await vi.runAllTimersAsync();
    await first;
    const second = chat.send('again');
    expect(chat.getSnapshot().status).toBe('queued');
    await vi.runAllTimersAsync();
    await second;
    expect(chat.getSnapshot().messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'You said hi' },
      { role: 'user', content: 'again' },
      { role: 'assistant', content: 'You said again' },
    ]);
    const request = engineCalls(createEngine)[1]?.request as StreamingChatCompletionRequest;
    expect(request.messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(request.messages).toHaveLength(4);
    expect(request.temperature).toBe(0.5);
  });

  it('streams the reply apart from the messages, then moves it in', async () => {
    const { pool } = fakePool({ reply: words(6), tokenMs: 10 });
    await pool.load();
    const chat = new ChatController(pool);
    void chat.send('count');
    await vi.advanceTimersByTimeAsync(15);
    expect(chat.getSnapshot()).toMatchObject({ status: 'streaming', reply: 'w0 w1' });
    expect(chat.getSnapshot().messages).toHaveLength(1);
    await vi.runAllTimersAsync();
    expect(chat.getSnapshot()).toMatchObject({ status: 'done', reply: '' });
    expect(chat.getSnapshot().messages.at(-1)).toEqual({ role: 'assistant', content: words(6) });
  });

  it('stop() keeps what the reply had said; sending mid-reply does the same', async () => {
    const { pool } = fakePool({ reply: words(10), tokenMs: 10 });
    await pool.load();
    const chat = new ChatController(pool);
    void chat.send('one');
    await vi.advanceTimersByTimeAsync(15);
    chat.stop();
    expect(chat.getSnapshot().messages.at(-1)).toEqual({ role: 'assistant', content: 'w0 w1' });
    void chat.send('two');
    await vi.advanceTimersByTimeAsync(25);
    void chat.send('three');
    await vi.runAllTimersAsync();
    expect(chat.getSnapshot().messages.map((m) => m.content)).toEqual(['one', 'w0 w1', 'two', 'w0 w1 w2', 'three', words(10)]);
  });

  it('keeps the user message and reports the error when a reply fails; reset() starts over', async () => {
    const { pool, createEngine } = fakePool({ reply: 'ok', tokenMs: 1 });
    await pool.load();
    const chat = new ChatController(pool, { initialMessages: [{ role: 'assistant', content: 'Hello!' }] });
    createEngine.engines[0]!.failNext(new Error('boom'));
    await chat.send('hi');
    expect(chat.getSnapshot()).toMatchObject({ status: 'error', reply: '' });
    expect(chat.getSnapshot().messages).toHaveLength(2);
    chat.reset();
    expect(chat.getSnapshot()).toMatchObject({ status: 'idle', error: null, messages: [{ role: 'assistant', content: 'Hello!' }] });
  });
});
