import { type BuiltInAIGlobals, translatorEngines } from '@inkling/browser-ai';
import { ModelLoadProgress, PoolProvider } from '@inkling/react';
import { EnginePool } from '@inkling/scheduler';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
// oxlint-disable-next-line import/no-unassigned-import -- the kit's default look, for the screenshots below.
import '@inkling/react/styles.css';
import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';

// This Chromium's real Translator (en→fr 'downloadable', create() refused without a click and
// pending for ever offline after one): what a person sees when a provider loads a pool whose
// model the browser downloads only from a click.

afterEach(() => cleanup());

const real = globalThis as unknown as Record<
  'Translator',
  { availability: (o?: unknown) => Promise<string>; create: (o?: unknown) => Promise<unknown> }
>;

function translatorPool() {
  let creates = 0;
  const Translator = {
    availability: (o?: unknown) => real.Translator.availability(o),
    create: (o?: unknown) => {
      creates += 1;
      return real.Translator.create(o);
    },
  };
  const globals = { Translator, document } as unknown as BuiltInAIGlobals;
  const pool = new EnginePool({
    size: 1,
    createEngine: translatorEngines({ globals, languages: [{ from: 'en', to: 'fr' }], downloadStallMs: Infinity }),
  });
  return { pool, creates: () => creates };
}

describe('a pool not yet downloaded, loaded by PoolProvider at mount', () => {
  it('offers the click the browser waits for, in words a person can act on, and the click starts the download', async () => {
    const { pool, creates } = translatorPool();
    render(
      <PoolProvider pool={pool}>
        <ModelLoadProgress />
      </PoolProvider>,
    );
    // Said politely: an offer, not a failure (no alert).
    const alert = await screen.findByRole('status', undefined, { timeout: 10_000 });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(document.querySelector('.inkling-model-load')?.getAttribute('data-needs-gesture')).toBe('true');
    const advice = alert.querySelector('.inkling-model-load-advice')?.textContent ?? '';
    expect(advice).toMatch(/downloads its built-in model only when you ask for it/);
    expect(advice).not.toMatch(/pool\.load|click handler|\w+\(\)/);
    const download = screen.getByRole('button', { name: 'Download model' });
    // For people to look at (ignored by git): what a phone, a tablet and a laptop show.
    for (const width of [390, 768, 1280]) {
      await page.viewport(width, 600);
      await page.screenshot({ path: `__screenshots__/download-on-click-${width}.png` });
    }
    // The developer's sentence stays one click away.
    expect(alert.querySelector('details')?.textContent).toMatch(/BuiltInGestureRequiredError/);
    // The press is the gesture: Chrome now starts the download (pending for ever offline).
    await userEvent.click(download);
    await waitFor(() => expect(document.querySelector('.inkling-model-load')?.getAttribute('data-status')).toBe('loading'));
    expect(creates()).toBeGreaterThan(0);
    await pool.unload();
  });

  it('a load cancelled by unload() resolves 0 and leaves the pool idle, as the README says', async () => {
    const { pool } = translatorPool();
    const button = document.createElement('button');
    document.body.append(button);
    let loading: Promise<number> | undefined;
    button.addEventListener('click', () => (loading = pool.load()));
    await userEvent.click(button);
    button.remove();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await pool.unload();
    await expect(loading).resolves.toBe(0);
    expect(pool.getSnapshot()).toMatchObject({ phase: 'idle', error: null });
  });
});
