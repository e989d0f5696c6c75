/**
 * The product events a screen recorded, for client tests that mock the generated operations: what waits in memory
 * is sent first (lib/track.ts batches it), then the names in the order they were recorded. Each call answers only
 * what came since the one before, so a test calls it once first to start from nothing.
 */
import { recordEvents } from '../../client/src/api/generated/operations';
import { flushEvents } from '../../client/src/lib/track';

export async function sentEventNames(): Promise<{ name: string; contentId?: string }[]> {
  await flushEvents();
  const sent = jest
    .mocked(recordEvents)
    .mock.calls.flatMap(([args]) => args.body.events.map(({ name, props }) => (props?.contentId ? { name, contentId: props.contentId } : { name })));
  jest.mocked(recordEvents).mockClear();
  return sent;
}
