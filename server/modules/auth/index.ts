/** Auth: accounts, sessions, tokens, social sign-in and the guards other modules use. */
export { authRouter, REFRESH_COOKIE } from './auth.routes';
export { createAuthService, REGISTRATION_MESSAGES, REGISTRATION_TTL_MS, REGISTER_LIMIT, type AuthService } from './auth.service';
export { createIdentityService, EMAIL_CHANGE_LIMIT, EMAIL_CHANGE_TTL_MS, USERNAME_CHANGE_LIMIT, type IdentityService } from './auth.identity';
export { identityRouter } from './auth.identity.routes';
export { MESSAGES as AUTH_MESSAGES } from './auth.rules';
export { checkCurrentPassword, PASSWORD_CHECK_LIMIT, PASSWORD_CHECK_MESSAGES } from './auth.password-check';
export { SessionModel, OneTimeTokenModel, SpentTokenModel } from './auth.model';
export { endEverySessionOf, purgeSpentTokens } from './auth.tokens';
