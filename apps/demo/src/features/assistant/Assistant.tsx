import { useNotes } from '../notes/notesStore.js';
import { ActionItems } from './ActionItems.js';
import { NoteChat } from './NoteChat.js';

/** Structured output and a tool, on the same pool as the suggestions: the note's action items, and a chat about it. */
export function Assistant({ enabled }: { enabled: boolean }) {
  const { selected } = useNotes();
  return (
    <div className="assistant">
      <ActionItems note={selected.text} enabled={enabled} />
      <NoteChat enabled={enabled} />
    </div>
  );
}
