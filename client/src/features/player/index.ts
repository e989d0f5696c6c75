/**
 * features/player: the bottom player bar and the one audio element songs play through. The
 * bar's code is a lazy chunk, loaded when the first song is chosen. Other features follow the player through
 * what is exported here (the knack saga watches the audio's actions and the current track).
 */
export {
  playerReducer,
  trackRequested,
  playRequested,
  pauseRequested,
  nextRequested,
  previousRequested,
  seekRequested,
  playerClosed,
  trackStepped,
  audioPlaying,
  audioProgressed,
  type PlayerState,
} from './player.slice';
export { selectCurrentTrack, selectHasTrack, selectPlayer, selectTrackProgress } from './player.selectors';
export { playerSaga, PLAYER_TIMING } from './player.saga';
export { usePlayerControls } from './usePlayerControls';
export { playerOwnerName } from './playerText';
export { positionAfterKey, positionText } from './seekKeys';

export const loadPlayerBar = () => import('./components/PlayerBar');
