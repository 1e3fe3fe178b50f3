import { type BuiltInAIProbe, type FeatureProbe, detectBuiltInAI, translatorEngines } from '@inkling/browser-ai';
import { createFakeBuiltInAI } from '@inkling/browser-ai/testing';
import { EnginePool, PoolProvider, TranslateList } from '@inkling/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useEffect, useState } from 'react';
import { expect, waitFor } from 'storybook/test';
import { PATIENCE } from './support/playHelpers.js';
import { NOTES } from './support/sampleText.js';

const meta = {
  title: 'Engines/Chrome built-in AI',
  parameters: {
    docs: {
      description: {
        component:
          "Chrome's Prompt, Translator and Language Detector APIs as engines of the pool (`@inkling/browser-ai`): desktop Chrome and Edge only.",
      },
    },
  },
} satisfies Meta;

export default meta;
type Story = StoryObj<typeof meta>;

/** Asks the browser once, on mount (`availability()` only: no request, no download). */
function useBuiltInProbe(): BuiltInAIProbe | null {
  const [probe, setProbe] = useState<BuiltInAIProbe | null>(null);
  useEffect(() => {
    let live = true;
    void detectBuiltInAI().then((found) => live && setProbe(found));
    return () => {
      live = false;
    };
  }, []);
  return probe;
}

const FEATURES: ReadonlyArray<[keyof BuiltInAIProbe, string]> = [
  ['prompt', 'Prompts (ghost text, chat)'],
  ['translation', 'Translation (en→fr)'],
  ['languageDetection', 'Language detection'],
];

function Feature({ label, found }: { label: string; found: FeatureProbe }) {
  return (
    <div data-feature-state={found.state} style={{ display: 'grid', gap: 2 }}>
      <dt style={{ fontWeight: 600 }}>
        {label}: {found.usable ? 'offered' : 'not here'} <code>{found.state}</code>
      </dt>
      <dd style={{ margin: 0 }}>{found.reason}</dd>
    </div>
  );
}

/** What this browser's built-in AI can do, and why not where it cannot. */
function BuiltInProbe() {
  const probe = useBuiltInProbe();
  if (!probe) return <p aria-busy="true">Asking the browser…</p>;
  return (
    <dl style={{ display: 'grid', gap: 12, maxWidth: 640, margin: 0 }}>
      {FEATURES.map(([key, label]) => (
        <Feature key={key} label={label} found={probe[key]} />
      ))}
    </dl>
  );
}

/** Each feature as this browser answers `availability()`, with the reason a settings screen would show. */
export const ThisBrowser: Story = {
  render: () => <BuiltInProbe />,
  play: async ({ canvasElement }) => {
    await waitFor(() => expect(canvasElement.querySelectorAll('[data-feature-state]')).toHaveLength(3), PATIENCE);
  },
};

/**
 * A page translation on the Translator API: Chrome's own where en→fr is
 * ready on this device, else a fake of the API (this browser's answer is
 * shown), so the story runs anywhere without a download.
 */
function BuiltInTranslate() {
  const probe = useBuiltInProbe();
  const [pool, setPool] = useState<EnginePool | null>(null);
  const real = probe?.translation.state === 'available';
  useEffect(() => {
    if (!probe) return;
    const next = new EnginePool({
      size: 1,
      createEngine: real ? translatorEngines() : translatorEngines({ globals: createFakeBuiltInAI({ pieceMs: 30 }).globals }),
    });
    setPool(next);
    return () => void next.unload();
  }, [probe, real]);
  if (!probe || !pool) return <p aria-busy="true">Asking the browser…</p>;
  return (
    <PoolProvider pool={pool} modelId={real ? 'chrome-translator' : 'fake-chrome-translator'} load>
      <p className="story-engine-badge" data-engine={real ? 'built-in' : 'fake-built-in'}>
        {real ? (
          <>
            <strong>Chrome&apos;s built-in translator</strong> · on this device
          </>
        ) : (
          <>
            <strong>Fake of Chrome&apos;s Translator API</strong> · this browser answers <code>{probe.translation.state}</code>
          </>
        )}
      </p>
      <TranslateList items={NOTES.slice(0, 6)} from="en" to="fr" task="built-in-notes" />
    </PoolProvider>
  );
}

/** `TranslateList` submitting translation jobs to the Translator API engine: one translator for the pair. */
export const Translating: Story = {
  render: () => <BuiltInTranslate />,
  play: async ({ canvasElement }) => {
    await waitFor(() => {
      const rows = [...canvasElement.querySelectorAll<HTMLElement>('tbody tr')];
      expect(rows).toHaveLength(6);
      expect(rows.every((row) => row.dataset.status === 'done')).toBe(true);
    }, PATIENCE);
  },
};
