import { useEffect } from 'react';
import message from 'antd/es/message';

export interface Toast {
  id: number;
  message: string;
}

/** Shows queued error toasts with antd message.error; one toast per distinct text at a time. */
export default function Toasts({ queue, onShown }: { queue: Toast[]; onShown: (ids: number[]) => void }) {
  const [api, contextHolder] = message.useMessage({ maxCount: 3 });
  useEffect(() => {
    if (!queue.length) return;
    for (const toast of queue) {
      void api.error({ content: toast.message, key: `api-error:${toast.message}`, duration: 4 });
    }
    onShown(queue.map((toast) => toast.id));
  }, [queue, api, onShown]);
  return contextHolder;
}
