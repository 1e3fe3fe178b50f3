export { openaiEngines } from './openaiEngines.js';
export {
  AuthenticationError,
  BadRequestError,
  ConnectTimeoutError,
  MalformedStreamError,
  RateLimitError,
  ServerError,
  ServerModelNotFoundError,
  ServerResponseError,
  ServerUnreachableError,
  StreamInterruptedError,
  isRetryableStatus,
} from './errors.js';
export type { ServerResponseErrorOptions } from './errors.js';
export type { FetchLike, OpenAIEngine, OpenAIEnginesOptions } from './types.js';
