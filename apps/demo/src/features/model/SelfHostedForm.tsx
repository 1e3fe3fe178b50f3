import { type FormEvent, useEffect, useId, useRef, useState } from 'react';

interface SelfHosted {
  model: string;
  modelUrl: string;
  libUrl: string;
}

interface SelfHostedFormProps {
  initial?: SelfHosted;
  /** Called with checked URLs; the engine running now keeps running until then. */
  onSwitch: (hosted: SelfHosted) => void;
  onCancel: () => void;
}

/** What is wrong with the form, field by field (an empty object when nothing is). */
export function checkSelfHosted(hosted: SelfHosted): Partial<Record<keyof SelfHosted, string>> {
  const problems: Partial<Record<keyof SelfHosted, string>> = {};
  if (!hosted.model.trim()) problems.model = 'Give the model an id, such as my-model-q4f32_1.';
  if (!isWebUrl(hosted.modelUrl)) problems.modelUrl = 'Enter the http(s) URL of the folder holding the weights.';
  if (!isWebUrl(hosted.libUrl) || !/\.wasm$/i.test(new URL(hosted.libUrl).pathname)) {
    problems.libUrl = 'Enter the http(s) URL of the model library, a file ending in .wasm.';
  }
  return problems;
}

function isWebUrl(text: string): boolean {
  return URL.canParse(text) && /^https?:$/.test(new URL(text).protocol);
}

const FIELDS: ReadonlyArray<{ key: keyof SelfHosted; label: string; placeholder: string }> = [
  { key: 'model', label: 'Model id', placeholder: 'my-model-q4f32_1' },
  { key: 'modelUrl', label: 'Weights URL', placeholder: 'https://example.com/models/my-model' },
  { key: 'libUrl', label: 'Library URL (.wasm)', placeholder: 'https://example.com/libs/my-model-webgpu.wasm' },
];

/**
 * The URLs of a model you host yourself. Nothing changes until "Switch to
 * this model": the engine running now keeps running while you fill it in,
 * and Cancel leaves it as it was.
 */
export function SelfHostedForm({ initial, onSwitch, onCancel }: SelfHostedFormProps) {
  const id = useId();
  const [hosted, setHosted] = useState<SelfHosted>(initial ?? { model: '', modelUrl: '', libUrl: '' });
  const [problems, setProblems] = useState<Partial<Record<keyof SelfHosted, string>>>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = checkSelfHosted(hosted);
    setProblems(found);
    setChecked((n) => n + 1);
    if (Object.keys(found).length === 0) onSwitch(hosted);
  };
  // After each check, the focus goes to the first field that is wrong.
  const form = useRef<HTMLFormElement>(null);
  const [checked, setChecked] = useState(0);
  useEffect(() => {
    if (checked > 0) form.current?.querySelector<HTMLInputElement>('[aria-invalid="true"]')?.focus();
  }, [checked]);
  return (
    <form ref={form} className="self-hosted" onSubmit={submit} aria-label="Self-hosted model" noValidate>
      {FIELDS.map(({ key, label, placeholder }) => (
        <div className="stacked-field" key={key}>
          <label htmlFor={`${id}-${key}`}>{label}</label>
          <input
            id={`${id}-${key}`}
            value={hosted[key]}
            placeholder={placeholder}
            type={key === 'model' ? 'text' : 'url'}
            aria-invalid={problems[key] ? true : undefined}
            aria-describedby={problems[key] ? `${id}-${key}-problem` : undefined}
            onChange={(event) => setHosted({ ...hosted, [key]: event.target.value })}
          />
          {problems[key] ? (
            <span className="field-problem" id={`${id}-${key}-problem`}>
              {problems[key]}
            </span>
          ) : null}
        </div>
      ))}
      <p className="form-note">The engine running now keeps running until you switch; switching unloads it.</p>
      <div className="form-actions">
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button primary">
          Switch to this model
        </button>
      </div>
    </form>
  );
}
