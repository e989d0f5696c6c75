/**
 * What tests (and the seed and bench scripts) use of this module beyond its index.ts: the image pipeline and the
 * ffmpeg binary it runs. Production code never imports this file (the linter refuses it): other modules use the index.
 */
export { processImage } from './images';
export { ffmpegBinary } from './audio';
