/**
 * A person writing with ghost text, as steps a replay plays in real time:
 * words typed a key at a time with a pause after each, Backspaces over the
 * last word (back to a text whose suggestion was already shown), and
 * accepted suggestions, one Tab or a chain of Tabs. Deterministic from a
 * seed, so today's controller and the new one replay the same keys.
 */
import { seeded } from '../shared/stats.js';

export type WriterStep =
  | { readonly kind: 'word'; readonly word: string }
  | { readonly kind: 'backspace'; readonly chars: number }
  | { readonly kind: 'tab'; readonly tabs: number };

const WORDS =
  'the of and to in is that it for was on are as with they be at one have this from or had by word but what some we can out other were all there when up use your how said each she which do their time if will way about many then them write would like so these her long make thing see him two has look more day could go come did number sound no most people my over know water than call first who may down side been now find any new work part take get place made live where after back little only round man year came show every good me give our under name very through just form sentence great think'.split(
    ' ',
  );

/**
 * `steps` steps: mostly words; after a word, now and then a Backspace over
 * it (and the word typed again differently), or a Tab, or two or three Tabs
 * in a row.
 */
export function writerSession(steps: number, seed = 7): WriterStep[] {
  const random = seeded(seed);
  const out: WriterStep[] = [];
  const word = () => WORDS[Math.floor(random() * WORDS.length)]!;
  while (out.length < steps) {
    const w = word();
    out.push({ kind: 'word', word: ` ${w}` });
    const roll = random();
    if (roll < 0.2) out.push({ kind: 'backspace', chars: w.length + 1 });
    else if (roll < 0.4) out.push({ kind: 'tab', tabs: 1 });
    else if (roll < 0.55) out.push({ kind: 'tab', tabs: 2 + Math.floor(random() * 2) });
  }
  return out.slice(0, steps);
}
