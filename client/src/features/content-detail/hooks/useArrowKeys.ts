import { useEffect, useRef } from 'react';

/** Typing in a field or choosing in a list keeps its own arrow keys. */
function isEditing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) || target.getAttribute('role') === 'tab';
}

/** ← and → anywhere on the page call `onPrevious` / `onNext` while `active`. */
export function useArrowKeys(active: boolean, onPrevious: () => void, onNext: () => void): void {
  const handlers = useRef({ onPrevious, onNext });
  handlers.current = { onPrevious, onNext };
  useEffect(() => {
    if (!active) return undefined;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || isEditing(event.target)) return;
      if (event.key === 'ArrowLeft') handlers.current.onPrevious();
      else if (event.key === 'ArrowRight') handlers.current.onNext();
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [active]);
}
