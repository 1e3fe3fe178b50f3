import { ModelManager } from '@inkling/react';
import { type WllamaEngine, wllamaEngines, wllamaModelStorage } from '@inkling/wllama';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import { wasmUrl } from './engines.js';
import { TEST_MODELS } from './testModels.js';

afterEach(() => cleanup());

it('<ModelManager> over the real wllama storage lists a downloaded model, deletes it after the confirmation, and shows the persistence state', async () => {
  const key = `mm${Date.now().toString(36)}`;
  await fetch(`/__models/config?key=${key}&ranges=1`);
  const url = new URL(`/__models/${key}/${TEST_MODELS.chat.file}`, location.href).href;
  await ((await wllamaEngines({ model: url, wasmUrl })(0, () => {})) as WllamaEngine).unload();
  const storage = wllamaModelStorage();
  render(<ModelManager storage={storage} />);
  const row = await waitFor(() => {
    const found = document.querySelector<HTMLElement>(`[data-model="${url}"]`);
    if (!found) throw new Error('not listed yet');
    return found;
  });
  expect(row.dataset.complete).toBe('true');
  expect(row.textContent).toContain('9.0 MB');
  const root = document.querySelector<HTMLElement>('.inkling-model-manager')!;
  expect(['true', 'false']).toContain(root.dataset.persisted);
  expect(screen.getByText(/used, .* free/)).toBeTruthy();
  await userEvent.click(within(row).getByRole('button'));
  await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
  await waitFor(() => expect(document.querySelector(`[data-model="${url}"]`)).toBeNull());
  expect((await storage.read()).models.find((m) => m.model === url)).toBeUndefined();
});
