import { type ChatMessage, type JsonSchema, type ToolCall } from '@inkling/scheduler';
import { checkJsonSchema, validateJson } from '@inkling/scheduler/engine';

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
  readonly id: string;
  readonly name: string;
  /** The parsed arguments (the raw text when they were not JSON). */
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

/** The request's `tools`, in OpenAI's shape. */
export function toolsParam(tools: Readonly<Record<string, ChatTool>>): Array<Record<string, unknown>> {
  return Object.entries(tools).map(([name, tool]) => {
    const problem = checkJsonSchema(tool.parameters);
    if (problem)
      throw new TypeError(
        `The parameters of tool "${name}" are not a usable JSON Schema at ${problem.path || 'its root'}: ${problem.message}`,
      );
    return {
      type: 'function',
      function: { name, ...(tool.description ? { description: tool.description } : {}), parameters: tool.parameters },
    };
  });
}

/** The calls a reply asked for, each checked against its tool: ready to run, to approve, or already failed. */
export function startCalls(calls: readonly ToolCall[], tools: Readonly<Record<string, ChatTool>>): ToolCallState[] {
  return calls.map((call, i) => {
    const id = call.id ?? `call_${i}`;
    const name = call.function.name;
    const tool = Object.hasOwn(tools, name) ? tools[name] : undefined;
    let args: unknown;
    try {
      args = JSON.parse(call.function.arguments || '{}');
    } catch {
      return { id, name, args: call.function.arguments, status: 'error', error: 'The arguments were not JSON.' };
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
    const ask = typeof tool.needsApproval === 'function' ? tool.needsApproval(args) : tool.needsApproval === true;
    return { id, name, args, status: ask ? 'awaiting-approval' : tool.execute ? 'running' : 'awaiting-result' };
  });
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
