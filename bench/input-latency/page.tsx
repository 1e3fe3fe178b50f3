/**
 * The page the input-latency bench types into: a 200-item translation and
 * ghost text streaming from two simulated engines, with a GhostTextarea
 * (`?mode=ghost`), the same with `events: ghostEvents(…)` feeding `GhostFigures` shown
 * on the page (`?mode=events`), or a plain textarea (`?mode=plain`) to type in.
 * The background work is the same in both; only the field differs.
 */
import { EnginePool, GhostFigures, GhostTextarea, PoolProvider, ghostEvents, useBatchTranslate, useGhostFigures } from '@inkling/react';
import { simulatedEngines } from '@inkling/react/testing';
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { startProbe } from './probe.js';

const asked = new URLSearchParams(location.search).get('mode');
const mode = asked === 'plain' || asked === 'events' ? asked : 'ghost';
const figures = new GhostFigures();
// 30 tokens/s and 80 ms prefill, like the scheduler bench; loads at once.
const pool = new EnginePool({ size: 2, createEngine: simulatedEngines({ tokenMs: 33, prefillMs: 80, loadMs: 0 }) });
const ITEMS = Array.from({ length: 200 }, (_, i) => `Paragraph ${i + 1}: the meeting moved to Thursday and everyone agreed.`);

function Translation() {
  const { progress } = useBatchTranslate({ task: 'page', items: ITEMS, to: 'French' });
  return <output id="progress">{progress.done}</output>;
}

function Figures() {
  const [set] = useGhostFigures(figures);
  return <output id="figures">{set ? `${set.shown} shown, p95 ${set.firstGlyphP95} ms` : ''}</output>;
}

function Field() {
  const [text, setText] = useState('');
  if (mode === 'events') {
    return (
      <>
        <GhostTextarea
          id="field"
          aria-label="Field"
          value={text}
          onChange={(e) => setText(e.target.value)}
          rows={8}
          cols={80}
          events={ghostEvents(figures.record)}
        />
        <Figures />
      </>
    );
  }
  return mode === 'ghost' ? (
    <GhostTextarea id="field" aria-label="Field" value={text} onChange={(e) => setText(e.target.value)} rows={8} cols={80} />
  ) : (
    <textarea id="field" aria-label="Field" value={text} onChange={(e) => setText(e.target.value)} rows={8} cols={80} />
  );
}

startProbe();
createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <PoolProvider pool={pool}>
      <Field />
      <Translation />
    </PoolProvider>
  </StrictMode>,
);
