import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import type { TranslationTarget } from '../../engine/remotePools.js';

/** Why a base URL cannot be used, or `null` when it can. */
export function checkBaseURL(text: string): string | null {
  if (!URL.canParse(text) || !/^https?:$/.test(new URL(text).protocol)) {
    return "Enter the server's http(s) base URL, such as http://localhost:8000/v1.";
  }
  return null;
}

/** Where the translation runs: this device, an OpenAI-compatible server (vLLM, Ollama, llama.cpp), or a simulated one. */
export function TargetPicker({ target, onChange }: { target: TranslationTarget; onChange: (target: TranslationTarget) => void }) {
  const id = useId();
  const [kind, setKind] = useState<TranslationTarget['kind']>(target.kind);
  const [server, setServer] = useState({ baseURL: 'http://localhost:8000/v1', model: '', apiKey: '' });
  // What is wrong, and with which field; the focus goes there after each check.
  const [problem, setProblem] = useState<{ field: 'url' | 'model'; text: string } | null>(null);
  const [checked, setChecked] = useState(0);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (checked > 0) form.current?.querySelector<HTMLInputElement>('[aria-invalid="true"]')?.focus();
  }, [checked]);
  const pick = (next: TranslationTarget['kind']) => {
    setKind(next);
    if (next !== 'server') onChange({ kind: next });
  };
  const connect = (event: FormEvent) => {
    event.preventDefault();
    const badURL = checkBaseURL(server.baseURL);
    const found = badURL
      ? { field: 'url' as const, text: badURL }
      : server.model.trim()
        ? null
        : { field: 'model' as const, text: 'Name the model the server runs.' };
    setProblem(found);
    setChecked((n) => n + 1);
    if (!found) onChange({ kind: 'server', ...server });
  };
  return (
    <div className="target-picker">
      <div className="inline-field">
        <label htmlFor={id}>Runs on</label>
        <select id={id} value={kind} onChange={(event) => pick(event.target.value as TranslationTarget['kind'])}>
          <option value="device">This device (the notes' pool)</option>
          <option value="server">An OpenAI-compatible server…</option>
          <option value="simulated-server">A simulated server (no model)</option>
        </select>
      </div>
      {kind === 'server' ? (
        <form ref={form} className="server-form" onSubmit={connect} aria-label="Server" noValidate>
          <div className="stacked-field">
            <label htmlFor={`${id}-url`}>Base URL</label>
            <input
              id={`${id}-url`}
              type="url"
              aria-invalid={problem?.field === 'url' ? true : undefined}
              aria-describedby={problem?.field === 'url' ? `${id}-problem` : undefined}
              value={server.baseURL}
              onChange={(e) => setServer({ ...server, baseURL: e.target.value })}
            />
          </div>
          <div className="stacked-field">
            <label htmlFor={`${id}-model`}>Model on the server</label>
            <input
              id={`${id}-model`}
              aria-invalid={problem?.field === 'model' ? true : undefined}
              aria-describedby={problem?.field === 'model' ? `${id}-problem` : undefined}
              placeholder="Qwen/Qwen2.5-7B-Instruct"
              value={server.model}
              onChange={(e) => setServer({ ...server, model: e.target.value })}
            />
          </div>
          <div className="stacked-field">
            <label htmlFor={`${id}-key`}>API key (optional, kept in memory)</label>
            <input
              id={`${id}-key`}
              type="password"
              value={server.apiKey}
              onChange={(e) => setServer({ ...server, apiKey: e.target.value })}
            />
          </div>
          <button type="submit" className="button primary">
            Use
          </button>
          {problem ? (
            <p className="field-problem" id={`${id}-problem`} role="alert">
              {problem.text}
            </p>
          ) : null}
        </form>
      ) : null}
    </div>
  );
}
