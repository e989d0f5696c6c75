/** When to run work that would otherwise hold a slow phone's main thread: in a later task, or once the browser is idle. */

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

/**
 * Runs `work` once the browser is idle (`requestIdleCallback`, at most `timeoutMs` later), else in a later task: for
 * work no one sees, such as the page's title and meta tags, so that it stays out of the first render's long tasks.
 * Returns a function that cancels it.
 */
export function whenIdle(work: () => void, timeoutMs = 1000): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(work, { timeout: timeoutMs });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(work, 0);
  return () => clearTimeout(id);
}
