import { TranslateList } from '@inkling/react';
import { useState } from 'react';
import { useNotes } from '../notes/notesStore.js';

const LANGUAGES = ['French', 'Spanish', 'German', 'Italian', 'Portuguese', 'Japanese'];

/** Every paragraph of every note: what "translate this page" translates. */
function paragraphs(texts: readonly string[]): string[] {
  return texts.flatMap((text) => text.split(/\n\s*\n/)).map((p) => p.trim()).filter(Boolean);
}

/** Translates the notes into a chosen language, as one background task, while you keep typing. */
export function TranslatePage() {
  const { notes } = useNotes();
  const [to, setTo] = useState('French');
  // What was on the page when the button was pressed; typing afterwards does not restart it.
  const [items, setItems] = useState<string[] | null>(null);
  return (
    <section className="translate" aria-labelledby="translate-heading">
      <div className="translate-bar">
        <h2 id="translate-heading">Translate this page</h2>
        <label className="field">
          <span>Into</span>
          <select value={to} onChange={(event) => setTo(event.target.value)}>
            {LANGUAGES.map((language) => (
              <option key={language}>{language}</option>
            ))}
          </select>
        </label>
        <button type="button" className="button primary" onClick={() => setItems(paragraphs(notes.map((n) => n.text)))}>
          Translate this page
        </button>
      </div>
      {items ? (
        <TranslateList task="translate-page" items={items} to={to} className="translate-list" />
      ) : (
        <p className="muted">
          Translates every paragraph of your notes in the background. Keep typing: suggestions still come first.
        </p>
      )}
    </section>
  );
}
