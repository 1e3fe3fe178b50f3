import { forwardRef, useImperativeHandle, useRef } from 'react';
import { type GhostTextareaProps, useGhostTextarea } from '../hooks/useGhostTextarea.js';

/**
 * A real `<textarea>` with Copilot-style ghost text drawn at the caret: Tab
 * accepts, Ctrl/Alt+ArrowRight accepts a word, Escape dismisses, a tap on the
 * ghost accepts; accepting is one undo step and fires `onChange`. Takes every
 * textarea prop (controlled `value` or uncontrolled `defaultValue`) and
 * forwards its ref to the textarea. State is on `data-state`
 * (`idle | queued | streaming | done | error`) and `data-has-suggestion`;
 * when suggestions fail, a status line under the textarea says why (tied to
 * it with `aria-describedby`) while typing goes on.
 * Unstyled; `import '@inkling/react/styles.css'` for a default look. Needs a
 * `<PoolProvider>`.
 *
 * @example
 * const [text, setText] = useState('');
 * <GhostTextarea aria-label="Note" value={text} onChange={(e) => setText(e.target.value)} rows={6} />
 */
export const GhostTextarea = forwardRef<HTMLTextAreaElement, GhostTextareaProps>(function GhostTextarea(props, forwarded) {
  const ref = useRef<HTMLTextAreaElement>(null);
  useImperativeHandle(forwarded, () => ref.current as HTMLTextAreaElement, []);
  const {
    rootProps,
    textareaProps,
    overlayProps,
    ghostProps,
    textProps,
    liveRegionProps,
    errorProps,
    errorMessage,
    before,
    suggestion,
    after,
    announcement,
  } = useGhostTextarea(props, ref);
  return (
    <div {...rootProps}>
      <textarea {...textareaProps} ref={ref} />
      <div {...overlayProps}>
        {suggestion ? (
          <>
            <span {...textProps}>{before}</span>
            <span {...ghostProps}>{suggestion}</span>
            <span {...textProps}>{after}</span>
          </>
        ) : null}
      </div>
      <div {...liveRegionProps}>{announcement}</div>
      <div {...errorProps}>{errorMessage}</div>
    </div>
  );
});
