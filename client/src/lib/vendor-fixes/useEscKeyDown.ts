/**
 * A corrected copy of @rc-component/portal's `useEscKeyDown` (2.2.1), which every antd modal, drawer and popup
 * uses to decide which one Escape closes: the one on top of a shared stack. The build puts this module in place of
 * the package's own (client/build/vendorFixes.ts).
 *
 * Why: the package pushes onto the stack while rendering (in a `useMemo`). React may render a component that is
 * mounting and then throw that render away (a lazy chunk arriving while the store updates, as it does every
 * quarter-second while a song plays) and mount it again under a new id. The thrown-away render's entry is never
 * removed, so it stays on the stack above the modal underneath: once the modal on top closed, Escape went to that
 * dead entry and closed nothing. Here an entry is added only when the component is really on screen (a layout
 * effect, before any key can be pressed) and removed when it leaves. The order of rendering is still kept: a
 * popup opened inside a modal in the same moment is above it.
 */
import { useLayoutEffect, useMemo, useRef } from 'react';

interface EscEvent {
  top: boolean;
  event: KeyboardEvent;
}

interface Entry {
  order: number;
  onEsc: (info: EscEvent) => void;
}

let stack: Entry[] = [];
let rendered = 0;
/** A key that ends an input method's composition is that composition's, not an Escape for the page. */
const IME_LOCK_MS = 200;
let lastCompositionEnd = 0;

function onGlobalKeyDown(event: KeyboardEvent) {
  if (event.key !== 'Escape' || event.isComposing || Date.now() - lastCompositionEnd < IME_LOCK_MS) return;
  const entries = [...stack];
  for (let index = entries.length - 1; index >= 0; index -= 1) entries[index]!.onEsc({ top: index === entries.length - 1, event });
}

function onGlobalCompositionEnd() {
  lastCompositionEnd = Date.now();
}

export default function useEscKeyDown(open: boolean, onEsc?: (info: EscEvent) => void): void {
  // The order this component first rendered in; a number only, so a render thrown away leaves nothing behind.
  const order = useMemo(() => (rendered += 1), []);
  const latest = useRef(onEsc);
  useLayoutEffect(() => {
    latest.current = onEsc;
  });
  useLayoutEffect(() => {
    if (!open) return undefined;
    const entry: Entry = { order, onEsc: (info) => latest.current?.(info) };
    stack = [...stack, entry].sort((a, b) => a.order - b.order);
    if (stack.length === 1) {
      window.addEventListener('keydown', onGlobalKeyDown);
      window.addEventListener('compositionend', onGlobalCompositionEnd);
    }
    return () => {
      stack = stack.filter((other) => other !== entry);
      if (stack.length === 0) {
        window.removeEventListener('keydown', onGlobalKeyDown);
        window.removeEventListener('compositionend', onGlobalCompositionEnd);
      }
    };
  }, [open, order]);
}
