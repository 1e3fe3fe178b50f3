import type { LanguageModelV4Prompt, LanguageModelV4ToolResultOutput, SharedV4Warning } from '@ai-sdk/provider';
import type { ChatMessage } from '@inkling/scheduler';

/**
 * The AI SDK's prompt as the OpenAI-shaped messages every Inkling engine
 * reads. Text parts are joined; reasoning parts are dropped (the model's own
 * reasoning is not sent back); files are not supported and come back as
 * warnings.
 */
export function promptToMessages(prompt: LanguageModelV4Prompt, warnings: SharedV4Warning[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  let fileWarned = false;
  const noFiles = () => {
    if (fileWarned) return;
    fileWarned = true;
    warnings.push({ type: 'unsupported', feature: 'file parts', details: 'Inkling engines take text; file parts were left out.' });
  };
  for (const message of prompt) {
    switch (message.role) {
      case 'system':
        messages.push({ role: 'system', content: message.content });
        break;
      case 'user': {
        const text = message.content.map((part) => (part.type === 'text' ? part.text : (noFiles(), ''))).join('');
        messages.push({ role: 'user', content: text });
        break;
      }
      case 'assistant': {
        let text = '';
        const toolCalls: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }> = [];
        for (const part of message.content) {
          if (part.type === 'text') text += part.text;
          else if (part.type === 'tool-call') {
            const args = typeof part.input === 'string' ? part.input : JSON.stringify(part.input ?? {});
            toolCalls.push({ id: part.toolCallId, type: 'function', function: { name: part.toolName, arguments: args } });
          } else if (part.type === 'file') noFiles();
        }
        messages.push(
          toolCalls.length > 0 ? { role: 'assistant', content: text || null, tool_calls: toolCalls } : { role: 'assistant', content: text },
        );
        break;
      }
      case 'tool':
        for (const part of message.content) {
          if (part.type !== 'tool-result') continue;
          messages.push({ role: 'tool', tool_call_id: part.toolCallId, content: outputText(part.output) });
        }
        break;
    }
  }
  return messages;
}

function outputText(output: LanguageModelV4ToolResultOutput): string {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return output.value;
    case 'json':
    case 'error-json':
      return JSON.stringify(output.value);
    case 'execution-denied':
      return JSON.stringify({ error: `The person declined this call${output.reason ? `: ${output.reason}` : '.'}` });
    default:
      return JSON.stringify(output);
  }
}
