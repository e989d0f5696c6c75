import type { Dispatch } from '@reduxjs/toolkit';

/**
 * Stops what is playing before the embed preview (spec §4 Share tab: switching to embed pauses audio): the
 * player bar through its action (the player feature defines it), and any other <audio> on the page, such as
 * the detail modal's song (pausing a paused one does nothing).
 */
export function pauseAllAudio(dispatch: Dispatch): void {
  dispatch({ type: 'player/pauseRequested' });
  document.querySelectorAll('audio').forEach((audio) => audio.pause());
}
