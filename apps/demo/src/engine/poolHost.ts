// The SharedWorker behind `?pool=shared`: one simulated pool for every tab of the demo.
import { simulatedEngines } from '@inkling/react/testing';
import { hostSharedWorker } from '@inkling/shared-pool';

// view: 'all': every tab is the demo itself, and its inspector shows whose each job is.
hostSharedWorker({ createEngine: simulatedEngines(), size: 2, view: 'all' });
