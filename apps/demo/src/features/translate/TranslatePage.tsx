import { PoolProvider, TranslateList } from '@inkling/react';
import { useState } from 'react';
import { type TranslationTarget, remotePool } from '../../engine/remotePools.js';
import { useNotes } from '../notes/notesStore.js';
import { TargetPicker } from './TargetPicker.js';

const LANGUAGES = ['French', 'Spanish', 'German', 'Italian', 'Portuguese', 'Japanese'];

/** Every paragraph of every note: what "translate this page" translates. */
function paragraphs(texts: readonly string[]): string[] {
  return texts.flatMap((text) => text.split(/\n\s*\n/)).map((p) => p.trim()).filter(Boolean);
}

/**
 * Translates the notes into a chosen language, as one background task, while
 * you keep typing: on this device's pool, or on a server's pool through a
 * second `PoolProvider` (the same component either way).
 */
export function TranslatePage() {
  const { notes } = useNotes();
  const [to, setTo] = useState('French');
  const [target, setTarget] = useState<TranslationTarget>({ kind: 'device' });
  // What was on the page when the button was pressed; typing afterwards does not restart it.
  const [items, setItems] = useState<string[] | null>(null);
  const list = items ? <TranslateList task="translate-page" items={items} to={to} className="translate-list" /> : null;
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
      <TargetPicker target={target} onChange={setTarget} />
      {target.kind === 'device' || !list ? (
        list
      ) : (
        <PoolProvider key={JSON.stringify(target)} pool={remotePool(target)} modelId={target.kind === 'server' ? target.model : 'simulated-server'}>
          {list}
        </PoolProvider>
      )}
      {items ? null : (
        <p className="muted">
          Translates every paragraph of your notes in the background. Keep typing: suggestions still come first.
        </p>
      )}
    </section>
  );
}
