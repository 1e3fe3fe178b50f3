/**
 * Measures, in the page, each keydown's delay to the next paint (the frame
 * after it, then a message posted from that frame's callback runs after the
 * paint), and every long task. Results are on `window.inklingLatency`.
 */
declare global {
  interface Window {
    inklingLatency: { delays: number[]; longTasks: number[] };
    /** Forgets what was measured so far (page load), before typing starts. */
    inklingLatencyReset: () => void;
  }
}

export function startProbe(): void {
  const results = { delays: [] as number[], longTasks: [] as number[] };
  window.inklingLatency = results;
  window.inklingLatencyReset = () => {
    results.delays.length = 0;
    results.longTasks.length = 0;
  };
  window.addEventListener(
    'keydown',
    (event) => {
      const start = event.timeStamp;
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.addEventListener('message', () => results.delays.push(performance.now() - start));
        channel.port1.start();
        channel.port2.postMessage(null);
      });
    },
    { capture: true },
  );
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) results.longTasks.push(entry.duration);
  }).observe({ type: 'longtask', buffered: true });
}
