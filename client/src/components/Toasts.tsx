import { useEffect } from 'react';
import message from 'antd/es/message';
import type { ToastKind } from './notify';

export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
}

/**
 * Shows queued toasts with antd message; one toast per distinct text at a time. Each toast is an alert
 * (role="alert", antd's own), so screen readers read it out as it appears.
 */
export default function Toasts({ queue, onShown }: { queue: Toast[]; onShown: (ids: number[]) => void }) {
  const [api, contextHolder] = message.useMessage({ maxCount: 3 });
  useEffect(() => {
    if (!queue.length) return;
    for (const toast of queue) {
      void api.open({ type: toast.kind, content: toast.message, key: `${toast.kind}:${toast.message}`, duration: toast.kind === 'error' ? 4 : 3 });
    }
    onShown(queue.map((toast) => toast.id));
  }, [queue, api, onShown]);
  return contextHolder;
}
