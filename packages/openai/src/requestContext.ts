import type { PoolTimers } from '@inkling/scheduler';
import type { Endpoint } from './endpoint.js';
import type { RequestStats } from './requestStats.js';

/** What `sendRequest` (and the streams it opens) need besides the request itself. */
export interface RequestContext {
  readonly endpoint: Endpoint;
  readonly timers: PoolTimers;
  readonly now: () => number;
  readonly random: () => number;
  readonly maxRetries: number;
  readonly maxRetryDelayMs: number;
  readonly connectTimeoutMs: number;
  readonly stallTimeoutMs: number;
  readonly maxEventBytes: number;
  /** The most bytes one answer may take (`maxResponseBytes`). */
  readonly maxResponseBytes: number;
  /** The longest one answer may take from its headers to its end (`maxResponseMs`). */
  readonly maxResponseMs: number;
  /** Counts of what was sent, for `OpenAIEngine.requestStats`. */
  readonly stats: RequestStats;
}

/** One try of a request: an answer to hand on, an abort, or a failure that may be retried. */
export type Attempt =
  | { kind: 'ok'; response: Response }
  | { kind: 'aborted' }
  | {
      kind: 'failed';
      retryable: boolean;
      /** The HTTP status of a failed response; `undefined` for a dropped connection or an error in a `200`. */
      status?: number;
      /** The server's `Retry-After`, in ms. */
      advisedMs: number | undefined;
      /** The error to end with; `waitRefused` when the advised wait is over the bound. */
      error: (waitRefused: boolean) => Promise<Error>;
      /** Lets go of the failed response before a retry. */
      discard: () => void;
    };
