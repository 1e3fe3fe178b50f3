/** Says plainly that this browser cannot run a model, and offers the simulated engine. */
export function WebGPUNotice({ reason, onSimulate }: { reason: string | null; onSimulate: () => void }) {
  return (
    <div className="notice" role="alert">
      <p>
        <strong>WebGPU is not available in this browser</strong>
        {reason ? `: ${reason}` : '.'} Inkling runs the model on your device's GPU through WebGPU (Chrome or Edge 113+
        on most desktops). Without it no model can load here.
      </p>
      <p>
        You can still try everything with the <strong>simulated engine</strong>: no model runs, a fake engine makes up
        plausible text at a realistic speed, and the scheduling is real.
      </p>
      <button type="button" className="button primary" onClick={onSimulate}>
        Use the simulated engine
      </button>
    </div>
  );
}
