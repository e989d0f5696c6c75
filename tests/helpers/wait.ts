/**
 * Waiting for a state instead of for a time: `waitUntil` checks a condition as often as the event loop
 * allows (a few milliseconds apart) until it holds, and fails with what it waited for when it never does.
 */
export async function waitUntil(condition: () => boolean | Promise<boolean>, { timeoutMs = 20_000, what = 'the condition' } = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
