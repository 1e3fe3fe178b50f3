import { APICallError, InvalidPromptError, UnsupportedFunctionalityError } from '@ai-sdk/provider';
import { type ChatCompletionRequest, type InklingError, InvalidJobError, UnsupportedConstraintError } from '@inkling/scheduler';

/**
 * An Inkling job error as the AI SDK's error class that means the same, so
 * its retries and its checks (`APICallError.isInstance`) work: a bad job or
 * schema is an `InvalidPromptError`, an engine that cannot constrain its output
 * an `UnsupportedFunctionalityError`, anything else an `APICallError` that
 * keeps whether to retry (a server's 503, a crashed engine that the pool
 * replaces) and the server's status. The Inkling error is the `cause`.
 * Chosen by class (`instanceof`, so subclasses such as `InvalidSchemaError`
 * count, and errors from a shared pool come back as their classes), never
 * by a class's name.
 */
export function aiSdkError(error: InklingError, params: ChatCompletionRequest | unknown): Error {
  const name = error.name;
  if (error instanceof InvalidJobError) {
    return new InvalidPromptError({ prompt: params, message: error.message, cause: error });
  }
  if (error instanceof UnsupportedConstraintError) {
    return new UnsupportedFunctionalityError({ functionality: 'structured output on this engine', message: error.message });
  }
  const details = error as InklingError & { status?: number; retryable?: boolean; fatal?: boolean; url?: string; requestId?: string };
  return new APICallError({
    message: error.message,
    url: details.url ?? 'inkling:pool',
    requestBodyValues: params,
    ...(typeof details.status === 'number' && details.status > 0 ? { statusCode: details.status } : {}),
    cause: error,
    // A crashed engine is replaced by the pool, so trying again is worth it.
    isRetryable: details.retryable ?? details.fatal === true,
    data: { name },
  });
}

/** What a fetch-based provider throws when its signal aborts: the AI SDK knows it. */
export function abortError(): Error {
  return new DOMException('The call was aborted.', 'AbortError');
}
