export { openaiEngines } from './openaiEngines.js';
export {
  AuthenticationError,
  BadRequestError,
  MalformedStreamError,
  ModelNotFoundError,
  RateLimitError,
  ServerError,
  ServerResponseError,
  ServerUnreachableError,
  StreamInterruptedError,
} from './errors.js';
export type { FetchLike, OpenAIEngine, OpenAIEnginesOptions } from './types.js';
