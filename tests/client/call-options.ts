/**
 * What a call made through the client's cached data layer hands its generated operation besides the arguments: the
 * abort signal and, for a quiet call, the reason the one error toast stays away (a form that shows the refusal under
 * its field, a page with its own error state). Tests of a quiet call expect it as the operation's second argument.
 */
export const QUIET_CALL = { signal: expect.anything(), quiet: expect.stringMatching(/\w/) };

/** What a flow (a saga) hands a quiet call: the reason alone. */
export const QUIET_FLOW_CALL = { quiet: expect.stringMatching(/\w/) };
