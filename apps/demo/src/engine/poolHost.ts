// The SharedWorker behind `?pool=shared`: one simulated pool for every tab of the demo.
import { simulatedEngines } from '@inkling/react/testing';
import { hostSharedWorker } from '@inkling/shared-pool';

hostSharedWorker({ createEngine: simulatedEngines(), size: 2 });
