import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { onApiError } from '../api/http';
import { onNotify, type ToastKind } from './notify';
import type { Toast } from './Toasts';
import { withAntd } from './antd/withAntd';

const Toasts = lazy(withAntd(() => import('./Toasts')));

let nextId = 1;

/**
 * Call errors show as toast errors with the server's message; successes and other messages come
 * through `notify`. Subscribes once to both. The toast code (antd message) is loaded with the first toast,
 * so it is not in the initial download.
 */
export function ToastLayer() {
  const [queue, setQueue] = useState<Toast[]>([]);
  const [active, setActive] = useState(false);
  useEffect(() => {
    const push = (kind: ToastKind, message: string) => {
      setActive(true);
      setQueue((items) => [...items, { id: nextId++, kind, message }]);
    };
    const offApi = onApiError((error) => push('error', error.message));
    const offNotify = onNotify((toast) => push(toast.kind, toast.message));
    return () => {
      offApi();
      offNotify();
    };
  }, []);
  const onShown = useCallback((ids: number[]) => setQueue((items) => items.filter((item) => !ids.includes(item.id))), []);
  if (!active) return null;
  return (
    <Suspense fallback={null}>
      <Toasts queue={queue} onShown={onShown} />
    </Suspense>
  );
}
