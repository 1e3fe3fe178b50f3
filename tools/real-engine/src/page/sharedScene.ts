/** The pool's name (and the SharedWorker's) in the shared-worker check. */
export const SHARED_POOL_NAME = 'inkling-real-engine';

/** Where the SharedWorker announces each engine it builds, so the pages can count loads. */
export const BUILDS_CHANNEL = 'inkling-real-engine-builds';
