// @vitest-environment node
import type { StreamingChatCompletionRequest } from '@inkling/scheduler';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChatController } from '../../src/chat/core/chatController.js';
import { engineCalls, fakePool, words } from './helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const echo = (request: StreamingChatCompletionRequest) => `You said ${String(request.messages.at(-1)?.content)}`;

describe('ChatController', () => {
  it('sends the system prompt and the whole conversation, and appends each reply', async () => {
    const { pool, createEngine } = fakePool({ reply: echo, tokenMs: 5 });
    await pool.load();
    const chat = new ChatController(pool, { system: 'Be brief.', params: { temperature: 0.5 } });
    const first = chat.sendMessage('hi');
    await vi.runAllTimersAsync();
    await first;
    const second = chat.sendMessage('again');
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
    void chat.sendMessage('count');
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
    void chat.sendMessage('one');
    await vi.advanceTimersByTimeAsync(15);
    chat.stop();
    expect(chat.getSnapshot().messages.at(-1)).toEqual({ role: 'assistant', content: 'w0 w1' });
    void chat.sendMessage('two');
    await vi.advanceTimersByTimeAsync(25);
    void chat.sendMessage('three');
    await vi.runAllTimersAsync();
    expect(chat.getSnapshot().messages.map((m) => m.content)).toEqual(['one', 'w0 w1', 'two', 'w0 w1 w2', 'three', words(10)]);
  });

  it('keeps the user message and reports the error when a reply fails; setMessages() puts the conversation back', async () => {
    const { pool, createEngine } = fakePool({ reply: 'ok', tokenMs: 1 });
    await pool.load();
    const chat = new ChatController(pool, { initialMessages: [{ role: 'assistant', content: 'Hello!' }] });
    createEngine.engines[0]!.failNext(new Error('boom'));
    await chat.sendMessage('hi');
    expect(chat.getSnapshot()).toMatchObject({ status: 'error', reply: '' });
    expect(chat.getSnapshot().messages).toHaveLength(2);
    chat.setMessages((messages) => messages.slice(0, 1));
    expect(chat.getSnapshot()).toMatchObject({ status: 'idle', error: null, messages: [{ role: 'assistant', content: 'Hello!' }] });
  });

  it('regenerate() replaces the last reply with a new one to the same conversation', async () => {
    let n = 0;
    const { pool, createEngine } = fakePool({ reply: () => `answer ${++n}`, tokenMs: 1 });
    await pool.load();
    const chat = new ChatController(pool, { system: 'Be brief.' });
    void chat.sendMessage('hi');
    await vi.runAllTimersAsync();
    const again = chat.regenerate();
    await vi.runAllTimersAsync();
    expect((await again).status).toBe('done');
    expect(chat.getSnapshot().messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'answer 2' },
    ]);
    const sent = createEngine.engines[0]!.calls.map((c) => (c.request as { messages: unknown[] }).messages);
    expect(sent[1]).toEqual(sent[0]);
  });

  it('regenerate() with no user message to answer throws, naming the fix, and changes nothing', () => {
    const { pool } = fakePool();
    const chat = new ChatController(pool, { initialMessages: [{ role: 'assistant', content: 'Hello!' }] });
    const before = chat.getSnapshot();
    expect(() => chat.regenerate()).toThrow(/sendMessage\(\)/);
    expect(chat.getSnapshot()).toBe(before);
  });
});
