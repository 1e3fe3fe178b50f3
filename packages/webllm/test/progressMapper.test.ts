import { describe, expect, it } from 'vitest';
import { ProgressMapper } from '../src/progressMapper.js';
import { FIRST_VISIT_STEPS } from './fakeWebLLM.js';

const report = (text: string, progress: number) => ({ text, progress, timeElapsed: 1 });

describe('ProgressMapper', () => {
  it('turns the phases of a first visit into one rising fraction', () => {
    const mapper = new ProgressMapper();
    const overall = FIRST_VISIT_STEPS.map((step) => mapper.map({ ...step, timeElapsed: 0 }).progress);
    expect(overall[0]).toBe(0);
    for (let i = 1; i < overall.length; i += 1) expect(overall[i]).toBeGreaterThanOrEqual(overall[i - 1] ?? 0);
    expect(overall[2]).toBeCloseTo(0.8); // downloading is most of a first visit
    expect(overall.at(-1)).toBe(1);
  });

  it('gives copying to the GPU most of the bar when the weights come from the cache', () => {
    const mapper = new ProgressMapper();
    expect(mapper.map(report('Loading model from cache[1/4]: 25MB loaded. 25% completed', 0.25)).progress).toBeCloseTo(0.225);
    expect(mapper.map(report('Loading model from cache[4/4]: 100MB loaded. 100% completed', 1)).progress).toBeCloseTo(0.9);
    expect(mapper.map(report('Loading GPU shader modules[5/5]: 100% completed', 1)).progress).toBeCloseTo(0.995);
  });

  it('keeps the fraction and the text for a report it does not recognise', () => {
    const mapper = new ProgressMapper();
    mapper.map(report('Fetching param cache[1/2]: 50% completed', 0.5));
    const odd = mapper.map(report('Something new in a later WebLLM', 0));
    expect(odd).toMatchObject({ phase: 'other', progress: 0.4, text: 'Something new in a later WebLLM' });
  });

  it('never goes back, and survives nonsense numbers', () => {
    const mapper = new ProgressMapper();
    mapper.map(report('Fetching param cache[2/2]', 1));
    expect(mapper.map(report('Fetching param cache[1/2]', 0.1)).progress).toBeCloseTo(0.8);
    expect(mapper.map(report('Loading model from cache[1/2]', Number.NaN)).progress).toBeCloseTo(0.8);
  });
});
