import type { Content } from '../../lib/content';
import type { PlayerState } from './player.slice';

type WithPlayer = { player: PlayerState };

export const selectPlayer = (state: WithPlayer) => state.player;
export const selectCurrentTrack = (state: WithPlayer): Content | null => state.player.queue[state.player.index] ?? null;
export const selectHasTrack = (state: WithPlayer) => state.player.queue.length > 0;
export const selectPreviewUsed = (state: WithPlayer) => state.player.previewUsed;
export const selectHasPrevious = (state: WithPlayer) => state.player.index > 0;
export const selectHasNext = (state: WithPlayer) => state.player.index < state.player.queue.length - 1;

/** What the player shows of one song: is it the current track, is it playing, where it is. */
export const selectTrackProgress = (state: WithPlayer, contentId: string) => {
  const current = selectCurrentTrack(state);
  if (current?.id !== contentId) return null;
  const { status, position, duration } = state.player;
  return { status, position, duration };
};
