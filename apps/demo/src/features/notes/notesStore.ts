import { useSyncExternalStore } from 'react';

export interface Note {
  readonly id: string;
  readonly text: string;
}

interface NotesState {
  readonly notes: readonly Note[];
  readonly selectedId: string;
}

const KEY = 'inkling-demo:notes';

const SAMPLES: readonly Note[] = [
  {
    id: 'welcome',
    text: 'Welcome to Inkling\n\nStart typing anywhere in this note and a suggestion appears after the caret. Press Tab to accept it.\n\nSuggestions come from a model running in your browser. Only a translation you send to a server takes your text off this device.',
  },
  {
    id: 'meeting',
    text: 'Team meeting\n\nWe agreed to ship the new editor next week.\n\nThanks to everyone for the feedback on the first draft.',
  },
  {
    id: 'trip',
    text: 'Trip to Lisbon\n\nBook the train tickets and the hotel near the river.\n\nAsk Maria about the best place for dinner.',
  },
];

function read(): NotesState {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? 'null') as NotesState | null;
    if (saved && Array.isArray(saved.notes) && saved.notes.length > 0) return saved;
  } catch {
    // A damaged entry falls back to the samples.
  }
  return { notes: SAMPLES, selectedId: SAMPLES[0]!.id };
}

let state: NotesState | undefined;
const listeners = new Set<() => void>();

function current(): NotesState {
  state ??= read();
  return state;
}

function set(next: NotesState): void {
  state = next;
  localStorage.setItem(KEY, JSON.stringify(next));
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The first line of a note, for the list. */
export function titleOf(note: Note): string {
  return note.text.split('\n', 1)[0]?.trim() || 'Untitled';
}

/** The notes, kept in this browser's storage. */
export function useNotes() {
  const { notes, selectedId } = useSyncExternalStore(subscribe, current, current);
  const selected = notes.find((n) => n.id === selectedId) ?? notes[0]!;
  return {
    notes,
    selected,
    select: (id: string) => set({ ...current(), selectedId: id }),
    update: (id: string, text: string) => set({ ...current(), notes: current().notes.map((n) => (n.id === id ? { id, text } : n)) }),
    add: () => {
      const id = `note-${Date.now().toString(36)}`;
      set({ notes: [{ id, text: '' }, ...current().notes], selectedId: id });
    },
  };
}
