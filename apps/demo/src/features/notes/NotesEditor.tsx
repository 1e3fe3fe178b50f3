import { GhostTextarea, useModelLoad } from '@inkling/react';
import { useRef } from 'react';
import { LatencyBadge } from '../scheduler/LatencyBadge.js';
import { titleOf, useNotes } from './notesStore.js';

/**
 * The note list and the editor with ghost text. `engineNote` says why there
 * are no suggestions (no engine running); while it is set the editor asks
 * for none, so no job waits in a queue that nothing serves.
 */
export function NotesEditor({ engineNote: chosenNote }: { engineNote: string | null }) {
  const { notes, selected, select, update, add } = useNotes();
  // A model that did not load serves nothing: say so instead of how to accept a suggestion.
  const failed = useModelLoad().status === 'error';
  const engineNote = chosenNote ?? (failed ? 'No suggestions: the model did not load. Choose another engine above.' : null);
  const editor = useRef<HTMLTextAreaElement>(null);
  const addNote = () => {
    add();
    editor.current?.focus();
  };
  return (
    <section className="notes" aria-labelledby="notes-heading">
      <nav className="notes-list" aria-labelledby="notes-heading">
        <h2 id="notes-heading">Notes</h2>
        <button type="button" className="button" onClick={addNote}>
          New note
        </button>
        <ul>
          {notes.map((note) => (
            <li key={note.id}>
              <button
                type="button"
                className="notes-item"
                aria-current={note.id === selected.id ? 'true' : undefined}
                onClick={() => select(note.id)}
              >
                {titleOf(note)}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <div className="note-editor">
        <div className="note-head">
          <label htmlFor="note-body" className="note-label">
            {titleOf(selected)}
          </label>
          <LatencyBadge session="notes-editor" />
        </div>
        <GhostTextarea
          ref={editor}
          id="note-body"
          session="notes-editor"
          className="note-textarea"
          rootClassName="note-field"
          value={selected.text}
          onChange={(event) => update(selected.id, event.target.value)}
          placeholder="Start typing…"
          spellCheck={false}
          suggest={engineNote === null}
          aria-describedby="note-hint"
        />
        <p className="note-hint" id="note-hint" data-engine-note={engineNote ? 'true' : undefined}>
          {engineNote ?? (
            <>
              <kbd>Tab</kbd> or a tap on the suggestion accepts · <kbd>Ctrl</kbd>+<kbd>→</kbd> accepts a word · <kbd>Alt</kbd>+<kbd>F2</kbd>{' '}
              reads it · <kbd>Esc</kbd> dismisses
            </>
          )}
        </p>
      </div>
    </section>
  );
}
