import { describe, expect, it } from 'vitest';
import text from '../../../packages/browser-ai/README.md?raw';

// The README's promises about a load, checked against what the code does (the behaviour itself is
// tested on this Chromium's real Translator in downloadOnClick.test.tsx).
const readme = text.replace(/\s+/g, ' ');

describe('the README on a load', () => {
  it('says a load cancelled by unload() resolves 0, as EnginePool does, not that it rejects', () => {
    const at = readme.indexOf('`pool.unload()` during the load settles it at once');
    expect(at).toBeGreaterThan(-1);
    const sentence = readme.slice(at, at + 160);
    expect(sentence).toMatch(/`pool\.load\(\)` resolves `0`/);
    expect(sentence).not.toMatch(/settles it at once \(`BuiltInLoadCancelledError`\)/);
  });

  it('says what a person sees when the browser waits for a click to download', () => {
    expect(readme).toMatch(/`BuiltInGestureRequiredError` \(`kind: 'needs-gesture'`\)/);
    expect(readme).toMatch(/"Download model" button/);
  });
});
