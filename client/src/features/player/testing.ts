/**
 * What tests use of this feature beyond its index.ts: the one audio element the player plays through. Production code
 * never imports this file (the linter refuses it): the rest of the client uses the index.
 */
export { playerAudio } from './audioEngine';
