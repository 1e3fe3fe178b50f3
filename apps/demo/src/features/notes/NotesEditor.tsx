import { GhostTextarea } from '@inkling/react';
import { titleOf, useNotes } from './notesStore.js';

/** The note list and the editor with ghost text. */
export function NotesEditor() {
  const { notes, selected, select, update, add } = useNotes();
  return (
    <section className="notes" aria-labelledby="notes-heading">
      <nav className="notes-list" aria-label="Notes">
        <h2 id="notes-heading">Notes</h2>
        <button type="button" className="button" onClick={add}>
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
        <label htmlFor="note-body" className="note-label">
          {titleOf(selected)}
        </label>
        <GhostTextarea
          id="note-body"
          session="notes-editor"
          className="note-textarea"
          rootClassName="note-field"
          value={selected.text}
          onChange={(event) => update(selected.id, event.target.value)}
          placeholder="Start typing…"
          spellCheck={false}
        />
        <p className="note-hint">
          <kbd>Tab</kbd> accepts · <kbd>Ctrl</kbd>+<kbd>→</kbd> accepts a word · <kbd>Esc</kbd> dismisses
        </p>
      </div>
    </section>
  );
}
