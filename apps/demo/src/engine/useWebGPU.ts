import { type WebGPUSupport, detectWebGPU } from '@inkling/webllm';
import { useEffect, useState } from 'react';

/** What this browser offers for WebGPU; `null` while it is being checked. */
export function useWebGPU(): WebGPUSupport | null {
  const [support, setSupport] = useState<WebGPUSupport | null>(null);
  useEffect(() => {
    let live = true;
    void detectWebGPU().then((found) => {
      if (live) setSupport(found);
    });
    return () => {
      live = false;
    };
  }, []);
  return support;
}
