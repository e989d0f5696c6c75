/**
 * The app's toasts in one place. API errors reach the toast layer from the HTTP client; other
 * messages (successes, social sign-in errors) are sent here, by sagas and components alike.
 */
export type ToastKind = 'success' | 'error' | 'info' | 'warning';

export interface ToastRequest {
  kind: ToastKind;
  message: string;
}

const listeners = new Set<(toast: ToastRequest) => void>();

export function notify(kind: ToastKind, message: string): void {
  listeners.forEach((listener) => listener({ kind, message }));
}

export function onNotify(listener: (toast: ToastRequest) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
