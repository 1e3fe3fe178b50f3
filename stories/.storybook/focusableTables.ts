/**
 * A props table that scrolls inside itself (on a phone, see preview.css) must
 * be reachable by keyboard, or its hidden columns are out of reach (axe's
 * `scrollable-region-focusable`). Storybook renders the tables itself, so each
 * one is given `tabindex="0"` and a name as it appears, keeping its table role.
 */
function label(table: Element): void {
  if (table.hasAttribute('tabindex')) return;
  table.setAttribute('tabindex', '0');
  const heading = table.closest('.sbdocs')?.querySelector('h1')?.textContent?.trim();
  table.setAttribute('aria-label', heading ? `${heading}: props (scrolls sideways)` : 'Props (scrolls sideways)');
}

export function makeTablesFocusable(root: Document): void {
  const sweep = () => root.querySelectorAll('.docblock-argstable').forEach(label);
  sweep();
  new MutationObserver(sweep).observe(root.documentElement, { childList: true, subtree: true });
}
