/**
 * What a call made through the client's cached data layer hands its generated operation besides the arguments: the
 * abort signal and, for a quiet call, the reason the one error toast stays away (a form that shows the refusal under
 * its field, a page with its own error state). Tests of a quiet call expect it as the operation's second argument.
 */
export const QUIET_CALL = { signal: expect.anything(), quiet: expect.stringMatching(/\w/) };
