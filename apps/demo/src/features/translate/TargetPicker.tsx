import { type FormEvent, useId, useState } from 'react';
import type { TranslationTarget } from '../../engine/remotePools.js';

/** Where the translation runs: this device, an OpenAI-compatible server (vLLM, Ollama, llama.cpp), or a simulated one. */
export function TargetPicker({ target, onChange }: { target: TranslationTarget; onChange: (target: TranslationTarget) => void }) {
  const id = useId();
  const [kind, setKind] = useState<TranslationTarget['kind']>(target.kind);
  const [server, setServer] = useState({ baseURL: 'http://localhost:8000/v1', model: '', apiKey: '' });
  const pick = (next: TranslationTarget['kind']) => {
    setKind(next);
    if (next !== 'server') onChange({ kind: next });
  };
  const connect = (event: FormEvent) => {
    event.preventDefault();
    onChange({ kind: 'server', ...server });
  };
  return (
    <div className="target-picker">
      <label htmlFor={id} className="field">
        <span>Runs on</span>
      </label>
      <select id={id} value={kind} onChange={(event) => pick(event.target.value as TranslationTarget['kind'])}>
        <option value="device">This device (the notes' pool)</option>
        <option value="server">An OpenAI-compatible server…</option>
        <option value="simulated-server">A simulated server (no model)</option>
      </select>
      {kind === 'server' ? (
        <form className="server-form" onSubmit={connect} aria-label="Server">
          <input aria-label="Base URL" type="url" required value={server.baseURL} onChange={(e) => setServer({ ...server, baseURL: e.target.value })} />
          <input aria-label="Model" required placeholder="Qwen/Qwen2.5-7B-Instruct" value={server.model} onChange={(e) => setServer({ ...server, model: e.target.value })} />
          <input aria-label="API key (optional, kept in memory)" type="password" placeholder="API key (optional)" value={server.apiKey} onChange={(e) => setServer({ ...server, apiKey: e.target.value })} />
          <button type="submit" className="button">
            Use
          </button>
        </form>
      ) : null}
    </div>
  );
}
