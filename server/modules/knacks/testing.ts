/**
 * What tests (and the seed and bench scripts) use of this module beyond its index.ts: the knack window (its size,
 * model and in-process versions) and the play records' models. Production code never imports this file (the linter
 * refuses it): other modules use the index.
 */
export { forgetKnackWindows, KnackWindowModel, KNACKS_BEFORE_CODE } from './knack-window';
export { KnackCodeAttemptModel, KnackCodeModel, PlaySessionModel } from './plays.model';
