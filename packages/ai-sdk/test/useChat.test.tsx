// @vitest-environment happy-dom
import { useChat } from '@ai-sdk/react';
import { fakePool } from '@inkling/scheduler/testing';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { DirectChatTransport, ToolLoopAgent } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { createInkling } from '../src/index.js';

afterEach(() => cleanup());

const echo = (request: { messages: Array<{ role: string; content: unknown }> }) =>
  `You said: ${String(request.messages.filter((m) => m.role === 'user').at(-1)?.content)}.`;

async function chatOn(options: Parameters<typeof fakePool>[0] = {}) {
  const { pool, createEngine } = fakePool({ tokenMs: 5, reply: echo, ...options }, { size: 1 });
  await pool.load();
  const agent = new ToolLoopAgent({ model: createInkling({ pool })('fake'), instructions: 'Be brief.' });
  // In the browser there is no server secret to hide: show the engine's own message.
  const transport = new DirectChatTransport({ agent, onError: (error) => (error instanceof Error ? error.message : String(error)) });
  const hook = renderHook(() => useChat({ transport }));
  return { pool, createEngine, hook };
}

const textOf = (message: { parts: Array<{ type: string; text?: string }> } | undefined) =>
  (message?.parts ?? [])
    .filter((p) => p.type === 'text')
    .map((p) => p.text)
    .join('');

describe('useChat from @ai-sdk/react over DirectChatTransport and the Inkling provider', () => {
  it('sends, streams and finishes a turn on the pool', async () => {
    const { hook, createEngine } = await chatOn();
    await act(() => hook.result.current.sendMessage({ text: 'hello there' }));
    await waitFor(() => expect(hook.result.current.status).toBe('ready'));
    const messages = hook.result.current.messages;
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(textOf(messages[1])).toBe('You said: hello there.');
    expect((createEngine.engines[0]?.calls[0]?.request.messages as unknown[] | undefined)?.[0]).toEqual({
      role: 'system',
      content: 'Be brief.',
    });
  });

  it('stop() ends the turn and the job at once; regenerate() asks again', async () => {
    const long = Array.from({ length: 80 }, (_, i) => `word${i}`).join(' ');
    const { hook, pool } = await chatOn({ tokenMs: 20, reply: long });
    act(() => void hook.result.current.sendMessage({ text: 'go' }));
    await waitFor(() => expect(hook.result.current.status).toBe('streaming'));
    await act(() => hook.result.current.stop());
    await waitFor(() => expect(hook.result.current.status).toBe('ready'));
    await waitFor(() => expect(pool.getSnapshot().jobs).toHaveLength(0));
    expect(pool.getSnapshot().recent.at(-1)).toMatchObject({ status: 'cancelled', cancelReason: 'abort' });
    const cut = textOf(hook.result.current.messages[1]);
    expect(cut.length).toBeLessThan(long.length);
    act(() => void hook.result.current.regenerate());
    await waitFor(() => expect(textOf(hook.result.current.messages[1])).toBe(long), { timeout: 5000 });
    await waitFor(() => expect(hook.result.current.status).toBe('ready'));
    expect(hook.result.current.messages).toHaveLength(2);
  });

  it('an engine error becomes an error turn, and the next turn works', async () => {
    const { hook, createEngine } = await chatOn();
    createEngine.engines[0]?.failNext(new Error('tokenizer failed'));
    await act(() => hook.result.current.sendMessage({ text: 'one' }));
    await waitFor(() => expect(hook.result.current.status).toBe('error'));
    expect(hook.result.current.error?.message).toMatch(/tokenizer failed/);
    await act(() => hook.result.current.sendMessage({ text: 'two' }));
    await waitFor(() => expect(hook.result.current.status).toBe('ready'));
    expect(textOf(hook.result.current.messages.at(-1))).toBe('You said: two.');
  });
});
