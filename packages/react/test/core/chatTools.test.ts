// @vitest-environment node
import {
  type ChatCompletionChunk,
  type Engine,
  EnginePool,
  type JsonSchema,
  type StreamingChatCompletionRequest,
} from '@inkling/scheduler';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChatController } from '../../src/chat/core/chatController.js';
import { engineCalls, fakePool } from './helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const weather: JsonSchema = {
  type: 'object',
  properties: { city: { enum: ['Oslo', 'Lima'] }, days: { type: 'integer', minimum: 1, maximum: 3 } },
  required: ['city', 'days'],
};

const after = (request: StreamingChatCompletionRequest) => `It is sunny (${String(request.messages.at(-1)?.content)}).`;

describe('ChatController with tools', () => {
  it('streams a tool call, waits for approval, runs it, sends the result and finishes', async () => {
    const { pool, createEngine } = fakePool({ reply: after, tokenMs: 5 });
    await pool.load();
    const execute = vi.fn(async (args: { city: string }, _context: { toolCallId: string }) => ({ forecast: 'sun', city: args.city }));
    const chat = new ChatController(pool, {
      tools: { getWeather: { description: 'The forecast', parameters: weather, needsApproval: true, execute } },
    });
    void chat.sendMessage('Use getWeather for Oslo');
    await vi.runAllTimersAsync();
    const waiting = chat.getSnapshot();
    expect(waiting.status).toBe('calling-tools');
    expect(waiting.toolCalls).toHaveLength(1);
    const [call] = waiting.toolCalls;
    expect(call).toMatchObject({ name: 'getWeather', status: 'awaiting-approval' });
    expect(['Oslo', 'Lima']).toContain((call?.args as { city: string } | undefined)?.city);
    expect(execute).not.toHaveBeenCalled();
    // The tools went to the engine in OpenAI's shape.
    const first = engineCalls(createEngine)[0]?.request as StreamingChatCompletionRequest;
    expect(first.tools).toEqual([{ type: 'function', function: { name: 'getWeather', description: 'The forecast', parameters: weather } }]);

    chat.approveToolCall(call?.id ?? '');
    await vi.runAllTimersAsync();
    expect(execute).toHaveBeenCalledTimes(1);
    expect(execute.mock.calls[0]?.[1].toolCallId).toBe(call?.id);
    const end = chat.getSnapshot();
    expect(end.status).toBe('done');
    expect(end.toolCalls[0]).toMatchObject({ status: 'done' });
    const roles = end.messages.map((m) => m.role);
    expect(roles).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(end.messages[1]?.tool_calls).toHaveLength(1);
    expect(end.messages[2]).toMatchObject({ role: 'tool', tool_call_id: call?.id });
    expect(JSON.parse(String(end.messages[2]?.content))).toMatchObject({ forecast: 'sun' });
    expect(String(end.messages[3]?.content)).toContain('sunny');
  });

  it('tells the model when a call is denied, and when a tool throws', async () => {
    const { pool, createEngine } = fakePool({ reply: after, tokenMs: 5 });
    await pool.load();
    const chat = new ChatController(pool, {
      tools: { getWeather: { parameters: weather, needsApproval: true, execute: () => 1 } },
    });
    void chat.sendMessage('weather?');
    await vi.runAllTimersAsync();
    chat.denyToolCall(chat.getSnapshot().toolCalls[0]?.id ?? '', 'not now');
    await vi.runAllTimersAsync();
    const tool = chat.getSnapshot().messages.find((m) => m.role === 'tool');
    expect(JSON.parse(String(tool?.content))).toEqual({ error: 'The person declined this call: not now' });
    expect(engineCalls(createEngine)).toHaveLength(2);

    const failing = new ChatController(pool, {
      tools: { getWeather: { parameters: weather, execute: () => Promise.reject(new Error('offline')) } },
    });
    void failing.sendMessage('weather?');
    await vi.runAllTimersAsync();
    const answer = failing.getSnapshot().messages.find((m) => m.role === 'tool');
    expect(JSON.parse(String(answer?.content))).toEqual({ error: 'offline' });
    expect(failing.getSnapshot().status).toBe('done');
  });

  it('waits for addToolResult when a tool has no execute', async () => {
    const { pool } = fakePool({ reply: after, tokenMs: 5 });
    await pool.load();
    const chat = new ChatController(pool, { tools: { getWeather: { parameters: weather } } });
    void chat.sendMessage('weather?');
    await vi.runAllTimersAsync();
    const [call] = chat.getSnapshot().toolCalls;
    expect(call?.status).toBe('awaiting-result');
    chat.addToolResult(call?.id ?? '', { temp: 21 });
    await vi.runAllTimersAsync();
    expect(chat.getSnapshot().status).toBe('done');
    expect(chat.getSnapshot().messages.at(-1)?.content).toContain('temp');
  });

  it('stops asking after maxToolRounds', async () => {
    // A model that calls the tool again after every result.
    let calls = 0;
    const engine: Engine = {
      interruptGenerate: () => {},
      chat: {
        completions: {
          create: async () => {
            calls += 1;
            const chunk: ChatCompletionChunk = {
              id: `c${calls}`,
              choices: [
                {
                  delta: {
                    tool_calls: [
                      { id: `call_${calls}`, type: 'function', function: { name: 'getWeather', arguments: '{"city":"Oslo","days":1}' } },
                    ],
                  },
                  finish_reason: 'tool_calls',
                },
              ],
            };
            return (async function* () {
              yield chunk;
            })();
          },
        },
      },
    };
    const pool = new EnginePool({ createEngine: async () => engine, size: 1 });
    await pool.load();
    const execute = vi.fn(() => 'ok');
    const chat = new ChatController(pool, { maxToolRounds: 2, tools: { getWeather: { parameters: weather, execute } } });
    void chat.sendMessage('weather?');
    await vi.runAllTimersAsync();
    expect(chat.getSnapshot().status).toBe('done');
    expect(calls).toBe(2);
    expect(execute).toHaveBeenCalledTimes(2);
    expect(chat.getSnapshot().messages.filter((m) => m.role === 'tool')).toHaveLength(2);
  });

  it('cancelled at any step leaves nothing running and a conversation a model can read', async () => {
    for (const step of ['streaming', 'approval', 'executing'] as const) {
      const { pool } = fakePool({ reply: after, tokenMs: 20 });
      await pool.load();
      let signal: AbortSignal | undefined;
      const chat = new ChatController(pool, {
        tools: {
          getWeather: {
            parameters: weather,
            needsApproval: step === 'approval',
            execute: (_args, context) => {
              signal = context.signal;
              return new Promise(() => {});
            },
          },
        },
      });
      void chat.sendMessage('weather?');
      if (step === 'streaming') await vi.advanceTimersByTimeAsync(1);
      else await vi.runAllTimersAsync();
      chat.stop();
      await vi.runAllTimersAsync();
      const state = chat.getSnapshot();
      expect({ step, status: state.status, jobs: pool.getSnapshot().jobs.length }).toEqual({ step, status: 'cancelled', jobs: 0 });
      expect({ step, aborted: step !== 'executing' || signal?.aborted === true }).toEqual({ step, aborted: true });
      // Every assistant tool call has its tool answer.
      const asked = state.messages.flatMap((m) => (m.tool_calls as Array<{ id: string }> | undefined) ?? []).map((c) => c.id);
      const answered = state.messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id);
      expect({ step, answered }).toEqual({ step, answered: asked });
    }
  });
});
