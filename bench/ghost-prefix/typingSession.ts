/**
 * A person writing in a long note, as the requests ghost text would send:
 * one per pause (after a word, mostly), with the caret at the end of the note
 * most of the time, sometimes back in the middle for an edit. Deterministic
 * from a seed, so the runs compared see the same keystrokes.
 */
import { seeded } from '../shared/stats.js';

const WORDS = (
  'the of and to in is that it for was on are as with his they be at one have this from or had by word but what some we can ' +
  'out other were all there when up use your how said an each she which do their time if will way about many then them write ' +
  'would like so these her long make thing see him two has look more day could go come did number sound no most people my ' +
  'over know water than call first who may down side been now find any new work part take get place made live where after ' +
  'back little only round man year came show every good me give our under name very through just form sentence great think ' +
  'say help low line differ turn cause much mean before move right boy old too same tell does set three want air well also ' +
  'play small end put home read hand port large spell add even land here must big high such follow act why ask men change ' +
  'went light kind off need house picture try us again animal point mother world near build self earth father head stand own ' +
  'page should country found answer school grow study still learn plant cover food sun four between state keep eye never last'
).split(' ');

/** A note of about `chars` characters: sentences of common words, in paragraphs. */
export function makeNote(chars: number, seed = 1): string {
  const random = seeded(seed);
  const parts: string[] = [];
  let length = 0;
  let sentence = 0;
  while (length < chars) {
    const n = 6 + Math.floor(random() * 12);
    const words = Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]!);
    const text = `${words.join(' ')}.`;
    const piece = text[0]!.toUpperCase() + text.slice(1);
    sentence += 1;
    const sep = length === 0 ? '' : sentence % 5 === 0 ? '\n\n' : ' ';
    parts.push(sep, piece);
    length += sep.length + piece.length;
  }
  return parts.join('').slice(0, chars);
}

/** One ghost-text request: the text and the caret at that pause. */
export interface Pause {
  readonly text: string;
  readonly caret: number;
}

/**
 * `pauses` requests over `note`: words typed at the end (a pause after each),
 * and every `editEvery`-th pause (none when 0) an edit in the middle of the
 * note (a word typed there), after which the writer goes back to the end.
 */
export function typingSession(note: string, pauses: number, { seed = 2, editEvery = 8 } = {}): Pause[] {
  const random = seeded(seed);
  const out: Pause[] = [];
  let text = note;
  for (let i = 1; out.length < pauses; i += 1) {
    const word = ` ${WORDS[Math.floor(random() * WORDS.length)]!}`;
    if (editEvery > 0 && i % editEvery === 0) {
      const at = text.lastIndexOf(' ', Math.floor(text.length * (0.3 + 0.4 * random())));
      const where = at > 0 ? at : Math.floor(text.length / 2);
      text = text.slice(0, where) + word + text.slice(where);
      out.push({ text, caret: where + word.length });
    } else {
      text += word;
      out.push({ text, caret: text.length });
    }
  }
  return out;
}
