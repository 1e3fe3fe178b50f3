import { type FormEvent, useState } from 'react';

interface SelfHosted {
  model: string;
  modelUrl: string;
  libUrl: string;
}

/** The URLs of a model you host yourself: its weights folder and its WebGPU library. */
export function SelfHostedForm({ initial, onLoad }: { initial?: SelfHosted; onLoad: (hosted: SelfHosted) => void }) {
  const [hosted, setHosted] = useState<SelfHosted>(initial ?? { model: '', modelUrl: '', libUrl: '' });
  const field = (key: keyof SelfHosted) => ({
    value: hosted[key],
    onChange: (event: { target: { value: string } }) => setHosted({ ...hosted, [key]: event.target.value }),
    required: true,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onLoad(hosted);
  };
  return (
    <form className="self-hosted" onSubmit={submit} aria-label="Self-hosted model">
      <label className="field">
        <span>Model id</span>
        <input {...field('model')} placeholder="my-model-q4f32_1" />
      </label>
      <label className="field">
        <span>Weights URL</span>
        <input {...field('modelUrl')} type="url" placeholder="https://example.com/models/my-model" />
      </label>
      <label className="field">
        <span>Library URL (.wasm)</span>
        <input {...field('libUrl')} type="url" placeholder="https://example.com/libs/my-model-webgpu.wasm" />
      </label>
      <button type="submit" className="button primary">
        Load
      </button>
    </form>
  );
}
