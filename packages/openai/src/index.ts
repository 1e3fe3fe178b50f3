export { openaiEngines } from './openaiEngines.js';
export {
  AuthenticationError,
  BadRequestError,
  ConnectTimeoutError,
  MalformedStreamError,
  ModelNotFoundError,
  RateLimitError,
  ServerError,
  ServerResponseError,
  ServerUnreachableError,
  StreamInterruptedError,
  isRetryableStatus,
} from './errors.js';
export type { ServerResponseErrorOptions } from './errors.js';
export type { FetchLike, OpenAIEngine, OpenAIEnginesOptions } from './types.js';
