import { afterEach, expect, it, vi } from 'vitest';
import { attachGhostOverlay } from '../../../src/ghost/core/attachGhostOverlay.js';

/** A ResizeObserver that reports only when the test says so, as a browser does after layout. */
class ManualResizeObserver {
  static last: ManualResizeObserver | undefined;
  observed: Element[] = [];
  constructor(readonly callback: () => void) {
    ManualResizeObserver.last = this;
  }
  observe(element: Element) {
    this.observed.push(element);
  }
  disconnect() {
    this.observed = [];
  }
  report() {
    this.callback();
  }
}

function elements() {
  const root = document.createElement('div');
  const textarea = document.createElement('textarea');
  const overlay = document.createElement('div');
  textarea.style.fontSize = '19px';
  root.append(textarea, overlay);
  document.body.append(root);
  return { textarea, overlay };
}

afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

it('leaves the first style sync to the ResizeObserver, so attaching forces no layout in the render', () => {
  vi.stubGlobal('ResizeObserver', ManualResizeObserver);
  const { textarea, overlay } = elements();
  const spy = vi.spyOn(window, 'getComputedStyle');
  const handle = attachGhostOverlay(textarea, overlay);
  expect(spy).not.toHaveBeenCalled();
  expect(overlay.style.fontSize).toBe('');
  expect(ManualResizeObserver.last?.observed).toEqual([textarea, textarea.parentElement]);
  // The observer's first report, after layout, mirrors the textarea.
  ManualResizeObserver.last?.report();
  expect(overlay.style.fontSize).toBe('19px');
  handle.detach();
  expect(ManualResizeObserver.last?.observed).toEqual([]);
});

it('syncs at once where there is no ResizeObserver', () => {
  vi.stubGlobal('ResizeObserver', undefined);
  const { textarea, overlay } = elements();
  attachGhostOverlay(textarea, overlay).detach();
  expect(overlay.style.fontSize).toBe('19px');
});
