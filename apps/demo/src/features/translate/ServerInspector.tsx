import { PoolInspector, PoolProvider } from '@inkling/react';
import { type TranslationTarget, remotePool, targetName } from '../../engine/remotePools.js';

/** The translation server's pool in the inspector column, its connection error included. */
export function ServerInspector({ target }: { target: Exclude<TranslationTarget, { kind: 'device' }> }) {
  return (
    <PoolProvider pool={remotePool(target)} load={false}>
      <PoolInspector title={`Server pool (${targetName(target)})`} maxJobs={10} />
    </PoolProvider>
  );
}
