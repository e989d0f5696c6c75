/**
 * What tests use of this feature beyond its index.ts: the upload form's completion and the picture crop's geometry.
 * Production code never imports this file (the linter refuses it): the rest of the client uses the index.
 */
export { completion } from './upload.rules';
export { fitCrop, HEADER_RATIO, moveCrop, outputSize, resizeCrop, scaleCrop, type Corner, type CropRect } from './crop';
