/**
 * Resolves in a later task, after the browser has had its turn (input, paint). Long work split at these points
 * never holds a slow phone's main thread for long. `scheduler.yield()` where the browser has it (the rest of the
 * work keeps its place ahead of other queued tasks), else a zero timeout.
 */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
