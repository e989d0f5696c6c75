import { createAction, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Content } from '../../lib/content';
import { commentsCounted, knackRegistered, pieceUpdated } from '../../lib/contentEvents';

/**
 * The bottom player: the queue it plays through, the current track and what the audio element
 * does. `status` is what the listener sees: playing, paused, or suspended after an audio error. The audio
 * element itself belongs to the player saga; this state is its mirror plus the listener's settings.
 */
export type PlayerStatus = 'idle' | 'playing' | 'paused' | 'suspended';

export interface PlayerState {
  queue: Content[];
  index: number;
  status: PlayerStatus;
  /** Seconds into the current track, and its length (from the audio, else from the stored duration). */
  position: number;
  duration: number;
  volume: number;
  muted: boolean;
  repeat: boolean;
  /** The comments count of the current track, once the detail call answered for it. */
  commentsCount: number | null;
  /** A visitor's 30 seconds of listening are used up: each later attempt asks to sign up. */
  previewUsed: boolean;
}

export const initialPlayerState: PlayerState = {
  queue: [],
  index: 0,
  status: 'idle',
  position: 0,
  duration: 0,
  volume: 0.8,
  muted: false,
  repeat: false,
  commentsCount: null,
  previewUsed: false,
};

export interface TrackRequest {
  content: Content;
  /** The pieces around it (the grid or strip it was chosen in): previous and next step through its songs. */
  queue?: Content[];
}

const trackAt = (state: PlayerState, index: number) => {
  state.index = index;
  state.position = 0;
  state.duration = state.queue[index]?.duration ?? 0;
  state.commentsCount = null;
};

const playerSlice = createSlice({
  name: 'player',
  initialState: initialPlayerState,
  reducers: {
    /** Play this song (from the detail modal's player, a card…): the queue becomes the songs around it. */
    trackRequested(state, action: PayloadAction<TrackRequest>) {
      const { content, queue = [] } = action.payload;
      const songs = queue.filter((piece) => piece.isAudio);
      state.queue = songs.some((piece) => piece.id === content.id) ? songs : [content];
      trackAt(
        state,
        state.queue.findIndex((piece) => piece.id === content.id),
      );
      state.status = 'playing';
    },
    playRequested(state) {
      if (state.queue.length) state.status = 'playing';
    },
    pauseRequested(state) {
      if (state.status === 'playing') state.status = 'paused';
    },
    /** Moves `offset` songs along the queue (after a 100 ms pause) and plays it. */
    trackStepped(state, action: PayloadAction<-1 | 1>) {
      const index = state.index + action.payload;
      if (index < 0 || index >= state.queue.length) return;
      trackAt(state, index);
      state.status = 'playing';
    },
    repeatToggled(state) {
      state.repeat = !state.repeat;
    },
    muteToggled(state) {
      state.muted = !state.muted;
    },
    volumeChanged(state, action: PayloadAction<number>) {
      state.volume = Math.min(1, Math.max(0, action.payload));
      state.muted = state.volume === 0;
    },
    /** The audio reports where it is. */
    audioProgressed(state, action: PayloadAction<{ position: number; duration: number }>) {
      state.position = action.payload.position;
      if (action.payload.duration > 0) state.duration = action.payload.duration;
    },
    /** The audio started or went on playing (also when started from outside, e.g. the system's media keys). */
    audioPlaying(state) {
      if (state.queue.length) state.status = 'playing';
    },
    /** The audio paused on its own (system media keys, another tab's audio…). */
    audioPaused(state) {
      if (state.status === 'playing') state.status = 'paused';
    },
    /** The song ended: with repeat it starts again; else the player pauses at the start (the saga goes next). */
    audioEnded(state) {
      state.position = 0;
      if (!state.repeat) state.status = 'paused';
    },
    /** The audio could not be loaded or decoded. */
    audioFailed(state) {
      if (state.queue.length) state.status = 'suspended';
    },
    /** A queued piece's links were renewed (its signed links end after a few minutes): the queue's copy takes them. */
    trackRenewed(state, action: PayloadAction<Content>) {
      const renewed = action.payload;
      state.queue.forEach((piece, index) => {
        if (piece.id === renewed.id) state.queue[index] = { ...renewed, reactedCount: piece.reactedCount };
      });
    },
    /** The detail call answered for the current track. */
    trackDetailLoaded(state, action: PayloadAction<{ contentId: string; commentsCount: number; reactedCount: number | null }>) {
      const track = state.queue[state.index];
      if (track?.id !== action.payload.contentId) return;
      state.commentsCount = action.payload.commentsCount;
      track.reactedCount = action.payload.reactedCount;
    },
    /** A visitor's 30 seconds are up: the audio is paused and signup asked for. */
    previewEnded(state) {
      state.previewUsed = true;
      if (state.status === 'playing') state.status = 'paused';
    },
    /** The bar's close button: the audio stops and the bar goes. */
    playerClosed(state) {
      return { ...initialPlayerState, volume: state.volume, muted: state.muted, repeat: state.repeat, previewUsed: state.previewUsed };
    },
  },
  extraReducers: (builder) => {
    // The bar's views follow a knack of a queued song.
    builder.addCase(knackRegistered, (state, action) => {
      for (const piece of state.queue) if (piece.id === action.payload.contentId) piece.reactedCount = action.payload.reactedCount;
    });
    // The owner changed a queued song here (its privacy): the bar follows the setting and the count it may show.
    builder.addCase(pieceUpdated, (state, action) => {
      const { id, setting, reactedCount } = action.payload;
      for (const piece of state.queue) if (piece.id === id) Object.assign(piece, { setting, reactedCount });
    });
    // And a comment on the current song.
    builder.addCase(commentsCounted, (state, action) => {
      if (state.queue[state.index]?.id === action.payload.contentId) state.commentsCount = action.payload.commentsCount;
    });
  },
});

/** The listener's intents that move along the queue (the saga pauses, waits 100 ms, then steps). */
export const nextRequested = createAction('player/nextRequested');
export const previousRequested = createAction('player/previousRequested');
/** Moves the current song to `seconds`. */
export const seekRequested = createAction<number>('player/seekRequested');
/** A visitor used a control that needs an account: pause and open signup (origin onClickKnack). */
export const signupAsked = createAction('player/signupAsked');
/**
 * The audio element reported an error at `position` seconds: the saga renews a signed link and goes on, or
 * reports `audioFailed`.
 */
export const audioErrored = createAction<{ position: number }>('player/audioErrored');

export const {
  trackRequested,
  playRequested,
  pauseRequested,
  trackStepped,
  repeatToggled,
  muteToggled,
  volumeChanged,
  audioProgressed,
  audioPlaying,
  audioPaused,
  audioEnded,
  audioFailed,
  trackRenewed,
  trackDetailLoaded,
  previewEnded,
  playerClosed,
} = playerSlice.actions;
export const playerReducer = playerSlice.reducer;
