import { type ChatMessage, InvalidSchemaError, type JsonSchema, type ToolCall } from '@inkling/scheduler';
import { MAX_JSON_DEPTH, checkJsonSchema, jsonDepth, validateJson } from '@inkling/scheduler/engine';

/**
 * A tool the model may call. The model sees `description` and `parameters`
 * (a JSON Schema of the arguments object); the app runs `execute` in the
 * browser, after the person approves when `needsApproval` says so.
 */
export interface ChatTool {
  /** What the tool does, for the model. Default: none. */
  description?: string;
  /** A JSON Schema of the arguments (an object). */
  parameters: JsonSchema;
  /**
   * Runs the call with its checked arguments; what it returns (JSON) is sent
   * back to the model, what it throws is sent back as the error. `signal`
   * aborts when the chat is stopped. Without it, the app answers with
   * `addToolResult`. Default: none.
   */
  // Method syntax, so a tool whose `execute` takes its own argument type fits the `unknown` here.
  execute?(args: unknown, context: { signal: AbortSignal; toolCallId: string }): unknown;
  /** Ask the person first (`approveToolCall` / `denyToolCall`). Default `false`. */
  needsApproval?: boolean | { bivarianceHack(args: unknown): boolean }['bivarianceHack'];
}

/**
 * Where one tool call is: waiting for the person (`'awaiting-approval'`),
 * running, waiting for the app's `addToolResult` (`'awaiting-result'`), or
 * settled (`'done'`, `'denied'`, `'error'`, `'cancelled'`).
 */
export type ToolCallStatus = 'awaiting-approval' | 'running' | 'awaiting-result' | 'done' | 'denied' | 'error' | 'cancelled';

/** One tool call of the current round, as the UI shows it. */
export interface ToolCallState {
  /**
   * The kit's own id for this call, unique in the conversation: the model's
   * id is never used (a model may repeat one, or send none), so approving a
   * call by this id approves this call and no other.
   */
  readonly id: string;
  readonly name: string;
  /**
   * The parsed arguments (the raw text when they were not JSON), frozen: the
   * arguments a person approves are the ones the tool runs with.
   */
  readonly args: unknown;
  readonly status: ToolCallStatus;
  /** What the tool returned (`'done'`). */
  readonly output?: unknown;
  /** Why it failed or was denied. */
  readonly error?: string;
}

/** Whether a call still waits for something. */
export function isPending(call: ToolCallState): boolean {
  return call.status === 'awaiting-approval' || call.status === 'running' || call.status === 'awaiting-result';
}

/**
 * The request's `tools`, in OpenAI's shape.
 *
 * @throws InvalidSchemaError when a tool's `parameters` is not a usable JSON Schema.
 */
export function toolsParam(tools: Readonly<Record<string, ChatTool>>): Array<Record<string, unknown>> {
  return Object.entries(tools).map(([name, tool]) => {
    const problem = checkJsonSchema(tool.parameters);
    if (problem)
      throw new InvalidSchemaError(problem.path, `the parameters of tool "${name}" are not a usable JSON Schema: ${problem.message}`);
    return {
      type: 'function',
      function: { name, ...(tool.description ? { description: tool.description } : {}), parameters: tool.parameters },
    };
  });
}

/**
 * The calls a reply asked for, each checked against its tool: ready to run,
 * to approve, or already failed. Each gets its id from `newId` (the model's
 * is ignored); arguments nested deeper than `MAX_JSON_DEPTH` fail unread.
 */
export function startCalls(calls: readonly ToolCall[], tools: Readonly<Record<string, ChatTool>>, newId: () => string): ToolCallState[] {
  return calls.map((call) => {
    const id = newId();
    const name = String(call.function?.name);
    const text = typeof call.function?.arguments === 'string' ? call.function.arguments : '';
    const tool = Object.hasOwn(tools, name) ? tools[name] : undefined;
    if (jsonDepth(text) > MAX_JSON_DEPTH) {
      return { id, name, args: text, status: 'error', error: `The arguments nest more than ${MAX_JSON_DEPTH} levels deep.` };
    }
    let args: unknown;
    try {
      args = deepFreeze(JSON.parse(text || '{}'));
    } catch {
      return { id, name, args: text, status: 'error', error: 'The arguments were not JSON.' };
    }
    if (!tool)
      return {
        id,
        name,
        args,
        status: 'error',
        error: `There is no tool named "${name}"; the tools are ${Object.keys(tools).join(', ')}.`,
      };
    const problem = validateJson(args, tool.parameters);
    if (problem)
      return {
        id,
        name,
        args,
        status: 'error',
        error: `The arguments ${problem.path ? `at ${problem.path} ` : ''}do not match the tool's parameters: ${problem.message}`,
      };
    let ask: boolean;
    try {
      ask = typeof tool.needsApproval === 'function' ? tool.needsApproval(args) : tool.needsApproval === true;
    } catch {
      // The app's check failed: the call must not run unasked.
      ask = true;
    }
    return { id, name, args, status: ask ? 'awaiting-approval' : tool.execute ? 'running' : 'awaiting-result' };
  });
}

/** The assistant message that asked for `calls`, each under the kit's id, with its arguments as the model wrote them. */
export function askedMessage(text: string, asked: readonly ToolCall[], calls: readonly ToolCallState[]): ChatMessage {
  const toolCalls = asked.map((call, i) => ({
    id: calls[i]?.id,
    type: 'function' as const,
    function: { name: String(call.function?.name), arguments: typeof call.function?.arguments === 'string' ? call.function.arguments : '' },
  }));
  return { role: 'assistant', content: text || null, tool_calls: toolCalls };
}

/** Freezes a parsed JSON value all the way down (its depth is already bounded). */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}

/** The `tool` messages that answer a settled round, in the order of the calls. */
export function toolMessages(calls: readonly ToolCallState[]): ChatMessage[] {
  return calls.map((call) => {
    const body =
      call.status === 'done'
        ? (call.output ?? null)
        : {
            error:
              call.status === 'denied'
                ? `The person declined this call${call.error ? `: ${call.error}` : '.'}`
                : (call.error ?? 'The call was cancelled.'),
          };
    return { role: 'tool', tool_call_id: call.id, content: JSON.stringify(body) };
  });
}
