import { useMemo } from 'react';
import { useAppDispatch, useAppSelector } from '../../lib/storeHooks';
import { selectIsLoggedIn } from '../auth';
import type { Content } from '../../lib/content';
import { selectPreviewUsed } from './player.selectors';
import {
  muteToggled,
  nextRequested,
  pauseRequested,
  playRequested,
  previousRequested,
  repeatToggled,
  seekRequested,
  signupAsked,
  trackRequested,
  volumeChanged,
} from './player.slice';

/**
 * The player's controls with the visitor rules applied: a visitor may start a song from the piece
 * itself for 30 seconds of listening in all; after that, and for the bar's play, mute, volume, previous and
 * next, the audio pauses and signup opens (origin onClickKnack). Pausing is always allowed.
 */
export function usePlayerControls() {
  const dispatch = useAppDispatch();
  const loggedIn = useAppSelector(selectIsLoggedIn);
  const previewUsed = useAppSelector(selectPreviewUsed);

  return useMemo(() => {
    const member =
      <A extends unknown[]>(run: (...args: A) => void) =>
      (...args: A) => {
        if (loggedIn) run(...args);
        else dispatch(signupAsked());
      };
    const mayListen = loggedIn || !previewUsed;
    return {
      /** Plays `content` (from the piece itself), with the songs of `queue` around it. */
      playTrack: (content: Content, queue?: Content[]) => dispatch(mayListen ? trackRequested({ content, queue }) : signupAsked()),
      /** Resumes the current song from the piece itself. */
      resume: () => dispatch(mayListen ? playRequested() : signupAsked()),
      pause: () => dispatch(pauseRequested()),
      /** Moves the current song (the piece's own waveform, or the bar's progress for members). */
      seek: (seconds: number) => dispatch(mayListen ? seekRequested(seconds) : signupAsked()),
      // The bar's controls.
      play: member(() => dispatch(playRequested())),
      next: member(() => dispatch(nextRequested())),
      previous: member(() => dispatch(previousRequested())),
      toggleMute: member(() => dispatch(muteToggled())),
      setVolume: member((volume: number) => dispatch(volumeChanged(volume))),
      seekFromBar: member((seconds: number) => dispatch(seekRequested(seconds))),
      toggleRepeat: member(() => dispatch(repeatToggled())),
    };
  }, [dispatch, loggedIn, previewUsed]);
}
