import { type WebGPUSupport, detectWebGPU } from '@inkling/webllm';
import { useEffect, useState } from 'react';

/** What this browser offers for WebGPU: `detected` when known at start, else checked here; `null` while unknown. */
export function useWebGPU(detected: WebGPUSupport | null): WebGPUSupport | null {
  const [support, setSupport] = useState<WebGPUSupport | null>(detected);
  useEffect(() => {
    if (support) return;
    let live = true;
    void detectWebGPU().then((found) => {
      if (live) setSupport(found);
    });
    return () => {
      live = false;
    };
  }, [support]);
  return support;
}
