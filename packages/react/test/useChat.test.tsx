import {
  InvalidSchemaError,
  type ChatCompletionChunk,
  type ChatMessage,
  type Engine,
  EnginePool,
  type JsonSchema,
  type StreamingChatCompletionRequest,
  type ToolCall,
} from '@inkling/scheduler';
import { act } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { useChat } from '../src/index.js';
import { describeEachReactMode, renderHookWithPool, settle } from './utils.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** A model that answers each request with the next of `replies`: tool calls, or text; the requests it read are kept. */
function scriptedPool(replies: ReadonlyArray<readonly ToolCall[] | string>) {
  const requests: StreamingChatCompletionRequest[] = [];
  const engine: Engine = {
    interruptGenerate: () => {},
    chat: {
      completions: {
        create: async (request) => {
          requests.push(structuredClone(request));
          const reply = replies[Math.min(requests.length - 1, replies.length - 1)] ?? 'ok';
          const chunk: ChatCompletionChunk =
            typeof reply === 'string'
              ? { id: 'c', choices: [{ delta: { content: reply }, finish_reason: 'stop' }] }
              : { id: 'c', choices: [{ delta: { tool_calls: [...reply] }, finish_reason: 'tool_calls' }] };
          return (async function* () {
            yield chunk;
          })();
        },
      },
    },
  };
  return { pool: new EnginePool({ createEngine: async () => engine, size: 1 }), requests };
}

const pay: JsonSchema = {
  type: 'object',
  properties: { to: { type: 'string' }, amount: { type: 'number' } },
  required: ['to', 'amount'],
  additionalProperties: false,
};

const call = (id: string | undefined, args: string, name = 'pay'): ToolCall => ({
  ...(id === undefined ? {} : { id }),
  type: 'function',
  function: { name, arguments: args },
});

/** Every call an assistant message asked for is answered by tool messages right after it, in order, each id once. */
function wellFormed(messages: readonly ChatMessage[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < messages.length; i += 1) {
    const asked = (messages[i]?.tool_calls as Array<{ id?: string }> | undefined) ?? [];
    if (asked.length === 0) continue;
    const answers = messages.slice(i + 1, i + 1 + asked.length);
    asked.forEach((c, k) => {
      if (typeof c.id !== 'string' || seen.has(c.id)) problems.push(`call ${String(c.id)} at ${i}: no id of its own`);
      if (typeof c.id === 'string') seen.add(c.id);
      const answer = answers[k];
      if (answer?.role !== 'tool' || answer.tool_call_id !== c.id) problems.push(`call ${String(c.id)} at ${i}: not answered in order`);
    });
  }
  return problems;
}

describeEachReactMode('useChat tool calls', (mode) => {
  it('approving the card a person saw runs that call with those arguments, whatever ids the model sent', async () => {
    for (const ids of [
      ['call_0', 'call_0'],
      [undefined, 'call_0'],
      [undefined, undefined],
    ]) {
      const { pool } = scriptedPool([[call(ids[0], '{"to":"bob","amount":5}'), call(ids[1], '{"to":"mallory","amount":5000}')], 'Paid.']);
      const execute = vi.fn((args: unknown) => ({ paid: args }));
      const { result, unmount } = renderHookWithPool(
        () => useChat({ tools: { pay: { parameters: pay, needsApproval: true, execute } } }),
        pool,
        mode,
      );
      await act(async () => void result.current.sendMessage('Pay bob 5'));
      await settle();
      const cards = result.current.toolCalls;
      expect(cards.map((c) => c.status)).toEqual(['awaiting-approval', 'awaiting-approval']);
      expect(new Set(cards.map((c) => c.id)).size).toBe(2);
      const bob = cards.find((c) => (c.args as { to: string }).to === 'bob');
      // The arguments shown cannot change under the person's eyes.
      expect(Object.isFrozen(bob?.args)).toBe(true);
      const shown = bob?.args as { to: string };
      expect(() => {
        shown.to = 'mallory';
      }).toThrow(TypeError);
      await act(async () => result.current.approveToolCall(bob?.id ?? ''));
      await settle();
      expect(execute.mock.calls.map(([args]) => args)).toEqual([{ to: 'bob', amount: 5 }]);
      const mallory = result.current.toolCalls.find((c) => c.id !== bob?.id);
      expect(mallory?.status).toBe('awaiting-approval');
      await act(async () => result.current.denyToolCall(mallory?.id ?? ''));
      await settle();
      expect(execute).toHaveBeenCalledTimes(1);
      expect(result.current.status).toBe('done');
      expect(wellFormed(result.current.messages)).toEqual([]);
      unmount();
    }
  });

  it('gives calls without an id ids of their own, and the results answer those calls', async () => {
    const { pool, requests } = scriptedPool([
      [call(undefined, '{"to":"ann","amount":1}'), call(undefined, '{"to":"cy","amount":2}')],
      'Done.',
    ]);
    const { result } = renderHookWithPool(
      () => useChat({ tools: { pay: { parameters: pay, execute: (args) => (args as { to: string }).to } } }),
      pool,
      mode,
    );
    await act(async () => void result.current.sendMessage('Pay both'));
    await settle();
    expect(result.current.status).toBe('done');
    // What the model read in the second round: its calls under the kit's ids, each answered.
    const read = requests[1]?.messages ?? [];
    expect(wellFormed(read)).toEqual([]);
    const asked = read.find((m) => m.tool_calls)?.tool_calls as Array<{ id: string; function: { arguments: string } }>;
    expect(asked.map((c) => c.function.arguments)).toEqual(['{"to":"ann","amount":1}', '{"to":"cy","amount":2}']);
    expect(read.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id, m.content])).toEqual([
      [asked[0]?.id, '"ann"'],
      [asked[1]?.id, '"cy"'],
    ]);
  });

  it('sendMessage() while a call waits for approval answers it first: the model always reads a well-formed conversation', async () => {
    const { pool, requests } = scriptedPool([[call('a', '{"to":"bob","amount":5}')], 'Sure, anything else?']);
    const execute = vi.fn();
    const { result } = renderHookWithPool(() => useChat({ tools: { pay: { parameters: pay, needsApproval: true, execute } } }), pool, mode);
    await act(async () => void result.current.sendMessage('Pay bob 5'));
    await settle();
    const waiting = result.current.toolCalls[0];
    expect(waiting?.status).toBe('awaiting-approval');
    await act(async () => void result.current.sendMessage('Actually, never mind.'));
    await settle();
    expect(result.current.status).toBe('done');
    const read = requests[1]?.messages ?? [];
    expect(read.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(wellFormed(read)).toEqual([]);
    expect(JSON.parse(String(read[2]?.content))).toEqual({ error: 'The call was cancelled.' });
    // The old card cannot be approved any more.
    await act(async () => result.current.approveToolCall(waiting?.id ?? ''));
    await settle();
    expect(execute).not.toHaveBeenCalled();
    expect(wellFormed(result.current.messages)).toEqual([]);
  });

  it('tool arguments 1,200 levels deep fail that call, typed; sendMessage() resolves and the chat settles', async () => {
    const deep = `{"to":${'{"a":'.repeat(1200)}1${'}'.repeat(1200)},"amount":1}`;
    const recursive: JsonSchema = {
      type: 'object',
      properties: { to: { $ref: '#/$defs/node' }, amount: { type: 'number' } },
      $defs: { node: { anyOf: [{ type: 'object', properties: { a: { $ref: '#/$defs/node' } } }, { type: 'integer' }] } },
    };
    const { pool } = scriptedPool([[call('x', deep)], 'Could not pay.']);
    const execute = vi.fn();
    const { result } = renderHookWithPool(() => useChat({ tools: { pay: { parameters: recursive, execute } } }), pool, mode);
    let sent: Promise<unknown> | undefined;
    await act(async () => {
      sent = result.current.sendMessage('Pay');
    });
    await settle();
    await expect(sent).resolves.toMatchObject({ status: 'done' });
    expect(result.current.status).toBe('done');
    expect(execute).not.toHaveBeenCalled();
    expect(result.current.toolCalls[0]).toMatchObject({ status: 'error', error: expect.stringContaining('64 levels deep') });
    const answer = result.current.messages.find((m) => m.role === 'tool');
    expect(String(answer?.content)).toContain('64 levels deep');
  });

  it('a tool whose parameters loop ({ $ref: "#" }) ends the reply with InvalidSchemaError; sendMessage() resolves', async () => {
    const { pool, requests } = scriptedPool(['never asked']);
    const { result } = renderHookWithPool(() => useChat({ tools: { pay: { parameters: { $ref: '#' } } } }), pool, mode);
    let sent: Promise<unknown> | undefined;
    await act(async () => {
      sent = result.current.sendMessage('Pay');
    });
    await settle();
    await expect(sent).resolves.toMatchObject({ status: 'error' });
    expect(result.current.status).toBe('error');
    expect(result.current.error).toBeInstanceOf(InvalidSchemaError);
    expect((result.current.error as InvalidSchemaError).path).toBe('$ref');
    expect(result.current.messages).toEqual([{ role: 'user', content: 'Pay' }]);
    expect(requests).toHaveLength(0);
  });
});
