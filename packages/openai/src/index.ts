export { openaiEngines } from './openaiEngines.js';
export { PRIORITY_PRESETS } from './serverPriority.js';
export { fimParams } from './fillInTheMiddle.js';
export { cachedTokensOf } from './chunkNormalizer.js';
export {
  AuthenticationError,
  BadRequestError,
  ConnectTimeoutError,
  MalformedStreamError,
  RateLimitError,
  RedirectRefusedError,
  ServerError,
  ServerModelNotFoundError,
  ServerResponseError,
  ServerUnreachableError,
  StreamInterruptedError,
  isRetryableStatus,
} from './errors.js';
export type { ServerResponseErrorOptions } from './errors.js';
export type { FetchLike, OpenAIEngine, OpenAIEnginesOptions } from './types.js';
export type { PriorityMap, PriorityMapping, ServerPriority } from './serverPriority.js';
export type { FimEndpoint, FimInput, FimParams } from './fillInTheMiddle.js';
export type { RequestStats } from './sendRequest.js';
