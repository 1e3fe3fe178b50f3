/**
 * Storybook's object control (the JSON tree beside an array or object prop)
 * renders its root entry as an `<li>` straight inside a `<div class="rejt-tree">`,
 * a list item outside any list (axe's `listitem`, serious). Each tree's root
 * is given the list role it lacks as it appears, so its items are a list to
 * assistive technology as they are on screen.
 */
export function listObjectTrees(root: Document): void {
  const sweep = () => {
    for (const tree of root.querySelectorAll('.rejt-tree:not([role])')) {
      if (tree.querySelector(':scope > li')) tree.setAttribute('role', 'list');
    }
  };
  sweep();
  new MutationObserver(sweep).observe(root.documentElement, { childList: true, subtree: true });
}
