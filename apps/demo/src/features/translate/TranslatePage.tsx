import { PoolProvider, TranslateList, useModelLoad } from '@inkling/react';
import { useState } from 'react';
import { type TranslationTarget, remotePool, targetName } from '../../engine/remotePools.js';
import { useNotes } from '../notes/notesStore.js';
import { ScheduleSwitch } from '../scheduler/ScheduleSwitch.js';
import { ServerStatus } from './ServerStatus.js';
import { TargetPicker } from './TargetPicker.js';

/** The languages offered, by name, with the code a job carries (a native translator, Chrome's, needs the code). */
const LANGUAGES: Readonly<Record<string, string>> = {
  French: 'fr',
  Spanish: 'es',
  German: 'de',
  Italian: 'it',
  Portuguese: 'pt',
  Japanese: 'ja',
};

/** Every paragraph of every note: what "translate this page" translates. */
function paragraphs(texts: readonly string[]): string[] {
  return texts
    .flatMap((text) => text.split(/\n\s*\n/))
    .map((p) => p.trim())
    .filter(Boolean);
}

interface TranslatePageProps {
  /** Whether this device's pool has an engine to run on (else a run there would only wait). */
  deviceReady: boolean;
  target: TranslationTarget;
  onTarget: (target: TranslationTarget) => void;
}

/**
 * Translates the notes into a chosen language, as one background task, while
 * you keep typing: on this device's pool, or on a server's pool through a
 * second `PoolProvider` (the same component either way). A run keeps the
 * language it started with; a new "Into" applies to the next run.
 */
export function TranslatePage({ deviceReady, target, onTarget }: TranslatePageProps) {
  const { notes } = useNotes();
  const [to, setTo] = useState('French');
  // What was on the page, and the language, when the button was pressed: typing afterwards does not restart it.
  const [run, setRun] = useState<{ items: string[]; to: string } | null>(null);
  // A device pool whose model did not load would end every row with that error at once.
  const failed = useModelLoad().status === 'error';
  const blocked = target.kind === 'device' && (!deviceReady || failed);
  // The notes are English: saying so lets a native translator run without a language detector.
  const list = run ? (
    <TranslateList task="translate-page" items={run.items} from="en" to={LANGUAGES[run.to] ?? run.to} className="translate-list" />
  ) : null;
  return (
    <section className="translate" aria-labelledby="translate-heading">
      <div className="translate-bar">
        <h2 id="translate-heading">Translate this page</h2>
        <div className="inline-field">
          <label htmlFor="translate-into">Into</label>
          <select id="translate-into" value={to} onChange={(event) => setTo(event.target.value)}>
            {Object.keys(LANGUAGES).map((language) => (
              <option key={language}>{language}</option>
            ))}
          </select>
        </div>
        <button
          type="button"
          className={blocked ? 'button' : 'button primary'}
          disabled={blocked}
          aria-describedby={blocked ? 'translate-blocked' : undefined}
          onClick={() => setRun({ items: paragraphs(notes.map((n) => n.text)), to })}
        >
          Translate this page
        </button>
      </div>
      <TargetPicker target={target} onChange={onTarget} />
      {target.kind === 'device' ? <ScheduleSwitch /> : null}
      {run && run.to !== to ? (
        <p className="muted" role="status">
          This run stays in {run.to}. Press “Translate this page” to translate into {to}.
        </p>
      ) : null}
      {target.kind === 'device' ? (
        list
      ) : (
        // No key: another target is another pool, and the hooks below move to it.
        <PoolProvider pool={remotePool(target)} modelId={target.kind === 'server' ? target.model : 'simulated-server'}>
          <ServerStatus name={targetName(target)} />
          {list}
        </PoolProvider>
      )}
      {blocked ? (
        <p className="muted" id="translate-blocked">
          No engine runs on this device yet: choose one above, or run the translation on a server.
        </p>
      ) : run ? null : (
        <p className="muted">Translates every paragraph of your notes in the background. Keep typing: suggestions still come first.</p>
      )}
    </section>
  );
}
