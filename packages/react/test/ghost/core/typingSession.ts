import { seededRandom } from '@inkling/scheduler/testing';

/** One state of an editor: its text and where the caret is. */
export interface EditorState {
  readonly text: string;
  readonly caret: number;
}

const VOCABULARY = (
  'the of and to in a is that for it as was with be by on not he this are or his from at which but have an they ' +
  'you were her she there would their we him been has when who will more no if out so said what up its about into ' +
  'than them can only other new some could time these two may then do first any my now such like our over man me'
).split(' ');

function prose(next: () => number, length: number): string {
  let out = '';
  while (out.length < length) {
    const word = VOCABULARY[Math.floor(next() * VOCABULARY.length)] as string;
    out += next() < 0.08 ? `${word}. ` : next() < 0.02 ? `${word}.\n\n` : `${word} `;
  }
  return out.slice(0, length);
}

/**
 * A recorded-looking typing session on a note of `noteLength` characters:
 * runs of typing at the end and in the middle (after a caret jump), runs of
 * Backspace and Delete, caret jumps and pastes. Returns every state, one per
 * keystroke (a paste or a caret jump is one).
 *
 * @example
 * const states = typingSession({ seed: 1, noteLength: 10_000, keystrokes: 3000 });
 */
export function typingSession({ seed, noteLength, keystrokes }: { seed: number; noteLength: number; keystrokes: number }): EditorState[] {
  const next = seededRandom(seed);
  let text = prose(next, noteLength);
  let caret = text.length;
  const states: EditorState[] = [{ text, caret }];
  const push = () => states.push({ text, caret });
  const pick = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  while (states.length <= keystrokes) {
    const roll = next();
    if (roll < 0.55) {
      // Typing, one character a keystroke.
      for (const ch of prose(next, pick(10, 60))) {
        text = text.slice(0, caret) + ch + text.slice(caret);
        caret += 1;
        push();
      }
    } else if (roll < 0.7) {
      for (let n = pick(1, 8); n > 0 && caret > 0; n -= 1) {
        text = text.slice(0, caret - 1) + text.slice(caret);
        caret -= 1;
        push();
      }
    } else if (roll < 0.78) {
      for (let n = pick(1, 4); n > 0 && caret < text.length; n -= 1) {
        text = text.slice(0, caret) + text.slice(caret + 1);
        push();
      }
    } else if (roll < 0.9) {
      caret = pick(0, text.length); // a click somewhere in the note
      push();
    } else if (roll < 0.95) {
      const pasted = prose(next, pick(20, 300));
      text = text.slice(0, caret) + pasted + text.slice(caret);
      caret += pasted.length;
      push();
    } else {
      caret = text.length; // Ctrl+End
      push();
    }
  }
  return states.slice(0, keystrokes + 1);
}
