import { useChat } from '@inkling/react';
import { type FormEvent, useId, useMemo, useState } from 'react';

interface Task {
  task: string;
  owner?: string;
}

/** The one tool: adds a task to the list beside the chat, only once the person allows it. */
function addTaskTool(add: (task: Task) => void) {
  return {
    addTask: {
      description: 'Adds a task to the person\u2019s task list.',
      parameters: {
        type: 'object',
        properties: { task: { type: 'string', maxLength: 60 }, owner: { type: 'string', maxLength: 24 } },
        required: ['task'],
      },
      needsApproval: true,
      execute: (args: unknown) => {
        add(args as Task);
        return { added: true };
      },
    },
  } as const;
}

/** A tool call's task in words: "book the train tickets (Maria)". */
function describe(args: unknown): string {
  const { task = '', owner } = (args ?? {}) as Partial<Task>;
  return owner ? `${task} (${owner})` : task;
}

/**
 * A small chat about the note with one tool, `addTask`, which runs only
 * after the person allows it (`needsApproval`): the model asks, the person
 * decides, the result goes back and the model answers.
 */
export function NoteChat({ enabled }: { enabled: boolean }) {
  const id = useId();
  const [tasks, setTasks] = useState<Task[]>([]);
  const tools = useMemo(() => addTaskTool((task) => setTasks((list) => [...list, task])), []);
  const chat = useChat({ tools, session: 'note-chat' });
  const [draft, setDraft] = useState('');
  const send = (event: FormEvent) => {
    event.preventDefault();
    if (!draft.trim()) return;
    void chat.sendMessage(draft);
    setDraft('');
  };
  const asking = chat.toolCalls.filter((call) => call.status === 'awaiting-approval');
  const said = chat.messages.filter((message) => message.role !== 'tool' && typeof message.content === 'string' && message.content);
  return (
    <section className="side-panel note-chat" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>
        Ask about the note <span className="muted">(one tool: add a task, with your approval)</span>
      </h2>
      {/* One height whatever the conversation holds, so a reply arriving moves nothing below. */}
      <div className="side-panel-body" aria-live="polite" tabIndex={0}>
        {said.length === 0 && !chat.reply ? <p className="muted">Ask it to add a task, e.g. “Remind Maria to book the hotel”.</p> : null}
        <ol className="chat-log">
          {said.map((message, index) => (
            // oxlint-disable-next-line react/no-array-index-key -- a conversation only grows
            <li key={index} data-role={message.role}>
              {String(message.content)}
            </li>
          ))}
          {chat.reply ? <li data-role="assistant">{chat.reply}</li> : null}
        </ol>
        {asking.map((call) => (
          <div key={call.id} className="tool-ask" role="group" aria-label="The assistant asks">
            <p>Add the task “{describe(call.args)}”?</p>
            <button type="button" className="button primary" onClick={() => chat.approveToolCall(call.id)}>
              Allow
            </button>
            <button type="button" className="button" onClick={() => chat.denyToolCall(call.id, 'The person declined.')}>
              Deny
            </button>
          </div>
        ))}
        {tasks.length > 0 ? (
          <ul className="task-list" aria-label="Your tasks">
            {tasks.map((task, index) => (
              // oxlint-disable-next-line react/no-array-index-key -- tasks are only added
              <li key={index}>{describe(task)}</li>
            ))}
          </ul>
        ) : null}
      </div>
      <form className="chat-form" onSubmit={send}>
        <label htmlFor={`${id}-input`} className="visually-hidden">
          Message
        </label>
        <input
          id={`${id}-input`}
          value={draft}
          placeholder={enabled ? 'Ask about the note' : 'Waits for an engine'}
          disabled={!enabled}
          onChange={(event) => setDraft(event.target.value)}
        />
        <button type="submit" className="button" disabled={!enabled || !draft.trim()}>
          Send
        </button>
      </form>
    </section>
  );
}
