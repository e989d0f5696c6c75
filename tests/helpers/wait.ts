/**
 * Waiting for a state instead of for a time. Both helpers look again as soon as the last look has answered
 * (a few milliseconds apart), so they take as long as the state takes to come, and fail with what they waited
 * for when it never does.
 */
/**
 * The pause between two looks: short, so the state is seen soon after it comes; not nothing, so a look that
 * reads the database does not keep it busy.
 */
const LOOK_EVERY_MS = 10;
const nextLook = () => new Promise((resolve) => setTimeout(resolve, LOOK_EVERY_MS));

/** Waits until `condition` holds. */
export async function waitUntil(condition: () => boolean | Promise<boolean>, { timeoutMs = 20_000, what = 'the condition' } = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await nextLook();
  }
}

/**
 * Reads `read` until it answers `expected` (a write or a list on its way), then asserts it: a failure shows the
 * last answer against the expected one.
 */
export async function untilEqual<T>(read: () => Promise<T>, expected: T, { timeoutMs = 15_000 } = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = await read();
  while (JSON.stringify(last) !== JSON.stringify(expected) && Date.now() < deadline) {
    await nextLook();
    last = await read();
  }
  expect(last).toEqual(expected);
}
