import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { screenshot } from './support/artifacts.js';
import { launchChromium } from './support/chromium.js';
import { overlaps } from './support/pageChecks.js';

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

/** Opens one story on its own (no Storybook chrome), as the built Storybook serves it. */
async function openStory(id: string, width = 1280): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 820 } });
  await page.goto(`${inject('storybookUrl')}/iframe.html?id=${id}&viewMode=story`);
  await page.locator('#storybook-root > *').first().waitFor();
  return page;
}

/** Opens one Docs page on its own (no Storybook chrome). */
async function openDocs(id: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 820 } });
  await page.goto(`${inject('storybookUrl')}/iframe.html?id=${id}&viewMode=docs`);
  await page.locator('.sbdocs-content').first().waitFor();
  return page;
}

/** A props table's rows as { name, description, default } (the name without the required mark). */
function tableRows(page: Page, index: number) {
  return page
    .locator('.docblock-argstable')
    .nth(index)
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => {
        const [name, description, fallback] = [...row.querySelectorAll('td')].map((cell) => (cell as HTMLElement).innerText.trim());
        return { name: name?.replace(/\*$/, ''), description, default: fallback };
      }),
    );
}

describe('the built Storybook', () => {
  it('the scheduler playground shows a preemption while its play function types over the batch', async () => {
    const page = await openStory('playground--scheduler-playground');
    const preempted = page.locator('.inkling-inspector-counts [data-outcome="preempted"]');
    await expect.poll(() => preempted.getAttribute('data-count'), { timeout: 30_000 }).not.toBe('0');
    await screenshot(page, 'story-playground');
    // What the play function typed reads as words, not "thex".
    await expect.poll(() => page.getByRole('textbox', { name: 'Note' }).inputValue(), { timeout: 20_000 }).toMatch(/^Thanks for the team/);
    await page.close();
  });

  // 900 px: about the canvas Storybook leaves at 1280 px beside its sidebar and panel.
  it.each([1280, 900])('in "Mixed pools" at %i px nothing overlaps and each inspector stays inside its card', async (width) => {
    const page = await openStory('playground-mixed-pools--local-ghost-text-remote-translation', width);
    await expect.poll(() => page.locator('.inkling-translate-list').getAttribute('data-status'), { timeout: 30_000 }).toBe('done');
    await screenshot(page, `story-mixed-pools-${width}`);
    expect(await overlaps(page, ['.inkling-ghost-textarea', '.inkling-translate-table', '.inkling-inspector'])).toEqual([]);
    const spills = await page.evaluate(() =>
      [...document.querySelectorAll('.playground-panel')].flatMap((card) => {
        const edge = card.getBoundingClientRect().right;
        const inspector = card.querySelector('.inkling-inspector')?.getBoundingClientRect();
        return inspector && inspector.right > edge ? [card.querySelector('h2')?.textContent ?? '?'] : [];
      }),
    );
    expect(spills).toEqual([]);
    // Every job column keeps room; the panel scrolls instead.
    const narrow = await page
      .locator('.inkling-jobs th')
      .evaluateAll((cells) => cells.filter((cell) => cell.getBoundingClientRect().width < 30).map((cell) => cell.textContent));
    expect(narrow).toEqual([]);
    await page.close();
  });

  it("a hook's Docs page tables the hook's options and what it returns (from its types and TSDoc), not the demo's props", async () => {
    const page = await openDocs('hooks-useghosttext--docs');
    await page.locator('.docblock-argstable').nth(1).waitFor({ timeout: 20_000 });
    await screenshot(page, 'docs-hooks-useghosttext');
    const options = await tableRows(page, 0);
    expect(options.map((row) => row.name)).toEqual([
      'session',
      'text',
      'caret',
      'selectionStart',
      'enabled',
      'debounceMs',
      'maxTokens',
      'buildParams',
      'locale',
      'model',
      'speculate',
      'refuse',
      'events',
      'pause',
      'adaptDebounce',
      'adaptLength',
      'throwOnError',
    ]);
    // Type and description from the TSDoc; the "Default `120`." sentence moves to the Default column.
    expect(options.find((row) => row.name === 'debounceMs')).toEqual({
      name: 'debounceMs',
      description: expect.stringMatching(/^Quiet time after a change[^]*\nnumber$/),
      default: '120',
    });
    expect(options.find((row) => row.name === 'session')?.description).toMatch(/supersedes the previous one[^]*\nstring$/);
    const result = await tableRows(page, 1);
    expect(result.map((row) => row.name)).toEqual(
      expect.arrayContaining(['suggestion', 'status', 'error', 'accept', 'acceptWord', 'dismiss', 'setComposing']),
    );
    expect(result.find((row) => row.name === 'setComposing')?.description).toMatch(/\(composing: boolean\) => void$/);
    // The required mark is for options a caller must pass; a returned value's members carry none.
    expect(await page.locator('.docblock-argstable').nth(0).locator('[title="Required"]').count()).toBe(2);
    expect(await page.locator('.docblock-argstable').nth(1).locator('[title="Required"]').count()).toBe(0);
    await page.close();
  });

  it("useGhostTextarea's Docs page tables its options, its own and those it picks from useGhostText, and says it takes the textarea's too", async () => {
    const page = await openDocs('hooks-useghosttextarea--docs');
    await page.locator('.docblock-argstable').nth(1).waitFor({ timeout: 20_000 });
    await screenshot(page, 'docs-hooks-useghosttextarea');
    const options = await tableRows(page, 0);
    expect(options.map((row) => row.name)).toEqual([
      'debounceMs',
      'maxTokens',
      'buildParams',
      'locale',
      'speculate',
      'refuse',
      'events',
      'pause',
      'adaptDebounce',
      'adaptLength',
      'value',
      'defaultValue',
      'onChange',
      'session',
      'suggest',
      'onAccept',
      'messages',
      'announceDelayMs',
      'rootClassName',
      'writingSuggestions',
    ]);
    expect(options.find((row) => row.name === 'announceDelayMs')).toEqual({
      name: 'announceDelayMs',
      description: expect.stringMatching(/^How long a complete suggestion stays unchanged before it is read out[^]*\nnumber$/),
      default: '700',
    });
    expect(options.find((row) => row.name === 'onAccept')?.description).toMatch(/\(inserted: string, how: 'all' \| 'word'\) => void$/);
    await expect
      .poll(() => page.locator('.sbdocs-content').first().innerText())
      .toContain('Also every member of TextareaHTMLAttributes<HTMLTextAreaElement>.');
    const result = await tableRows(page, 1);
    expect(result.map((row) => row.name)).toEqual(
      expect.arrayContaining(['rootProps', 'textareaProps', 'overlayProps', 'ghostProps', 'suggestion', 'accept', 'acceptWord']),
    );
    await page.close();
  });

  it.each([
    [
      'hooks-useghosttext--docs',
      "const ghost = useGhostText({ session: 'notes-editor', text, caret });\nconst onKeyDown = (e: KeyboardEvent) => {\n  if (e.key === 'Tab' && ghost.suggestion) {",
    ],
    [
      'components-ghosttextarea--docs',
      '<GhostTextarea aria-label="Note" value={text} onChange={(e) => setText(e.target.value)} rows={6} />',
    ],
    ['components-modelloadprogress--docs', '<PoolProvider pool={pool}>\n  <ModelLoadProgress />\n</PoolProvider>'],
  ])('%s shows its TSDoc @example as code, JSX and indentation intact', async (id, code) => {
    const page = await openDocs(id);
    const description = page.locator('.sbdocs-content').first();
    await expect.poll(() => description.locator('pre').first().innerText(), { timeout: 20_000 }).toContain(code);
    expect(await description.innerText()).not.toContain('@example');
    await page.close();
  });

  it.each([
    ['components-ghosttextarea--suggesting', '.inkling-ghost-textarea[data-has-suggestion="true"]'],
    ['components-ghosttextarea--mid-text', '.inkling-ghost-textarea[data-has-suggestion="true"]'],
    ['components-translatelist--translating', '.inkling-translate-list'],
    ['components-modelloadprogress--no-web-gpu', '.inkling-model-load'],
    ['components-poolinspector--busy', '.inkling-inspector'],
  ])('%s renders and is saved as a screenshot', async (id, selector) => {
    const page = await openStory(id);
    await page.locator(selector).first().waitFor({ timeout: 20_000 });
    expect(await page.locator(selector).count()).toBeGreaterThan(0);
    await screenshot(page, `story-${id}`);
    await page.close();
  });
});

describe('Real WebLLM in a browser without WebGPU', () => {
  it('shows the load and says why it cannot run, with what to pick instead', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 820 } });
    await page.goto(`${inject('storybookUrl')}/iframe.html?id=components-ghosttextarea--idle&viewMode=story&globals=engine:webllm`);
    await page.locator('.story-engine-badge[data-engine="webllm"]').waitFor();
    const problem = page.locator('.story-engine-problem');
    await problem.waitFor({ timeout: 15_000 });
    await expect(problem.textContent()).resolves.toMatch(
      /^Real WebLLM cannot run in this browser \(no WebGPU; the load below says why\)\. Pick “Simulated engine”/,
    );
    // The load is shown too: here it ends with its typed failure and what to do.
    await page.locator('.story-engine-load[data-status="error"]').waitFor({ timeout: 15_000 });
    await screenshot(page, 'story-real-webllm-no-webgpu');
    await page.close();
  }, 60_000);
});
