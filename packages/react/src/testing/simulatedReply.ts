import type { StreamingChatCompletionRequest } from '@inkling/scheduler';
import { pseudoTranslate } from './pseudoTranslate.js';
import { simulatedGhostReply } from './simulatedGhostReply.js';

function contentOf(request: StreamingChatCompletionRequest, role: string): string {
  const message = request.messages.findLast((m) => m.role === role);
  return typeof message?.content === 'string' ? message.content : '';
}

/**
 * What the simulated engine answers, understanding Inkling's own default
 * prompts: a ghost-text request (`defaultGhostParams`) gets a short
 * continuation of the text before the cursor; a translation request
 * (`defaultTranslateParams`) a pseudo-translation into its target language;
 * anything else a short reply that says it is simulated. Deterministic: the
 * same request, the same answer.
 *
 * @example
 * simulatedReply({ messages: defaultTranslateParams({ text: 'Hello', to: 'fr', from: undefined }).messages, stream: true });
 * // 'Bonjour'
 */
export function simulatedReply(request: StreamingChatCompletionRequest): string {
  const user = contentOf(request, 'user');
  const system = contentOf(request, 'system');
  const ghost = /<before_cursor>([\s\S]*?)<\/before_cursor>/.exec(user);
  if (ghost) {
    const after = /<after_cursor>([\s\S]*?)<\/after_cursor>/.exec(user)?.[1] ?? '';
    return simulatedGhostReply(ghost[1] ?? '', after);
  }
  const translate = /translation engine\. Translate the user's text (?:from .+? )?into (.+?)\. Reply/.exec(system);
  if (translate) return pseudoTranslate(user, translate[1] ?? '');
  const said = user.length > 60 ? `${user.slice(0, 57)}…` : user;
  return `This is a simulated reply (no model is running). You said: “${said}”`;
}
