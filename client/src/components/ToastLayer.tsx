import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { onApiError } from '../api/http';
import type { Toast } from './Toasts';

const Toasts = lazy(() => import('./Toasts'));

let nextId = 1;

/**
 * Spec §8: call errors show as toast errors with the server's message. Subscribes once to the HTTP
 * layer. The toast code (antd message) is loaded with the first error, so it is not in the initial download.
 */
export function ToastLayer() {
  const [queue, setQueue] = useState<Toast[]>([]);
  const [active, setActive] = useState(false);
  useEffect(
    () =>
      onApiError((error) => {
        setActive(true);
        setQueue((items) => [...items, { id: nextId++, message: error.message }]);
      }),
    [],
  );
  const onShown = useCallback((ids: number[]) => setQueue((items) => items.filter((item) => !ids.includes(item.id))), []);
  if (!active) return null;
  return (
    <Suspense fallback={null}>
      <Toasts queue={queue} onShown={onShown} />
    </Suspense>
  );
}
