/**
 * Keyboard shortcuts of a screen: single keys (`j`, `ArrowDown`, `Enter`…) mapped to actions while
 * `enabled`. A key typed into a field, with a modifier (Ctrl, Alt, Meta), or while a dialog above
 * the screen has the focus is left alone, so shortcuts never take what an operator types.
 */
import { useEffect, useRef } from 'react';

export type Shortcuts = Partial<Record<string, () => void>>;

function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) ||
    target.closest('[role="combobox"], .ant-select') !== null
  );
}

export function useShortcuts(shortcuts: Shortcuts, enabled = true): void {
  // The latest actions, without re-adding the listener at every render.
  const latest = useRef(shortcuts);
  useEffect(() => {
    latest.current = shortcuts;
  });
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.altKey || event.metaKey || event.defaultPrevented) return;
      if (typing(event.target)) return;
      const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
      const action = latest.current[key];
      if (!action) return;
      event.preventDefault();
      action();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [enabled]);
}
