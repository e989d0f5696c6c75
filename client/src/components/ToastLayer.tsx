import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { onApiError } from '../api/http';
import { onNotify, type ToastKind } from './notify';
import type { Toast } from './Toasts';
import { withAntd } from '../app/withAntd';

const Toasts = lazy(withAntd(() => import('./Toasts')));

let nextId = 1;

/**
 * Toasts as screen readers hear them: two live regions, there from the first paint (a region added together with
 * its words is not announced), that get each toast's text as a new line. Errors interrupt (assertive, without the
 * alert role, which belongs to the messages a page shows in place); the rest waits for a pause (polite). antd's toasts are not live regions, so they are hidden from screen readers
 * (Toasts.tsx) and these speak instead.
 */
function ToastAnnouncer({ toasts }: { toasts: Toast[] }) {
  const errors = toasts.filter((toast) => toast.kind === 'error');
  const others = toasts.filter((toast) => toast.kind !== 'error');
  return (
    <>
      <div className="kn-visually-hidden" aria-live="assertive" data-testid="toast-announcer-errors">
        {errors.map((toast) => (
          <p key={toast.id}>{toast.message}</p>
        ))}
      </div>
      <div className="kn-visually-hidden" role="status" aria-live="polite" data-testid="toast-announcer">
        {others.map((toast) => (
          <p key={toast.id}>{toast.message}</p>
        ))}
      </div>
    </>
  );
}

/** How many recent toasts the live regions keep (older lines were announced already). */
const ANNOUNCED_KEPT = 3;

/**
 * Call errors show as toast errors with the server's message; successes and other messages come
 * through `notify`. Subscribes once to both. The toast code (antd message) is loaded with the first toast,
 * so it is not in the initial download; the live regions that announce toasts are always there.
 */
export function ToastLayer() {
  const [queue, setQueue] = useState<Toast[]>([]);
  const [announced, setAnnounced] = useState<Toast[]>([]);
  const [active, setActive] = useState(false);
  useEffect(() => {
    const push = (kind: ToastKind, message: string) => {
      const toast = { id: nextId++, kind, message };
      setActive(true);
      setQueue((items) => [...items, toast]);
      setAnnounced((items) => [...items, toast].slice(-ANNOUNCED_KEPT));
    };
    const offApi = onApiError((error) => push('error', error.message));
    const offNotify = onNotify((toast) => push(toast.kind, toast.message));
    return () => {
      offApi();
      offNotify();
    };
  }, []);
  const onShown = useCallback((ids: number[]) => setQueue((items) => items.filter((item) => !ids.includes(item.id))), []);
  return (
    <>
      <ToastAnnouncer toasts={announced} />
      {active ? (
        <Suspense fallback={null}>
          <Toasts queue={queue} onShown={onShown} />
        </Suspense>
      ) : null}
    </>
  );
}
