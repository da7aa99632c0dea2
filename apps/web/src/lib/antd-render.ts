/**
 * antd-mobile 5 renders Toast, Dialog and Modal through ReactDOM.render, which React 19 removed:
 * without a createRoot-based render function they silently render nothing. Every module that
 * uses those imperative APIs imports antd-mobile through here, so the fix is always in place.
 */
import { createRoot, type Root } from 'react-dom/client';
import { unstableSetRender } from 'antd-mobile';

const roots = new WeakMap<Element | DocumentFragment, Root>();

unstableSetRender((node, container) => {
  let root = roots.get(container);
  if (!root) {
    root = createRoot(container);
    roots.set(container, root);
  }
  root.render(node);
  return async () => {
    await Promise.resolve();
    root.unmount();
    roots.delete(container);
  };
});

export { Dialog, Toast } from 'antd-mobile';
