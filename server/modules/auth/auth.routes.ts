import { Router, type CookieOptions, type Request, type Response } from 'express';
import type { AuthConfig } from '../../config';
import type { ApiRequest, ApiResponse, Schemas } from '../../lib/openapi-types';
import { reactedContentIds } from '../ledger';
import { toMemberSummaryDto, toUserDto } from '../users';
import { auditDetails } from '../../lib/audit-details';
import { requireAuth } from '../users';
import { MESSAGES } from './auth.rules';
import type { AuthService, SignedIn } from './auth.service';
import { verifyFacebookToken, verifyGoogleCredential } from './auth.social';

export const REFRESH_COOKIE = 'knack_refresh';

export function authRouter(config: AuthConfig, auth: AuthService): Router {
  const router = Router();
  const cookieOptions: CookieOptions = {
    httpOnly: true,
    secure: config.cookieSecure,
    sameSite: 'strict',
    path: '/api/v2/auth',
  };
  const refreshCookie = (req: Request): string | undefined => (req.cookies as Record<string, string | undefined> | undefined)?.[REFRESH_COOKIE];
  const address = (req: Request) => req.ip ?? 'unknown';

  /** Answers a signed-in session: the access token in the body, the refresh token as the cookie. */
  async function sendSignedIn(res: Response, session: SignedIn, message: string, status = 200) {
    const reacted = await reactedContentIds(String(session.user._id));
    res.cookie(REFRESH_COOKIE, session.refreshToken, { ...cookieOptions, maxAge: config.refreshTokenTtlDays * 86_400_000 });
    const body: Schemas['AuthResponse'] = {
      user: toUserDto(session.user, session.role),
      token: session.token,
      message,
      reacted_contents: reacted,
    };
    res.status(status).json(body);
  }

  const pendingActivation = (): Schemas['AuthResponse'] => ({ user: null, token: null, message: MESSAGES.checkEmail, reacted_contents: [] });

  router.post('/auth/signup', async (req: ApiRequest<'signup'>, res: ApiResponse<'signup'>) => {
    await auth.signup(req.body, address(req));
    res.status(201).json(pendingActivation());
  });

  router.post('/auth/signup-orland', async (req: ApiRequest<'signupOrland'>, res) => {
    await sendSignedIn(res, await auth.register(req.body, address(req)), MESSAGES.activated, 201);
  });

  router.post('/user/create-account', requireAuth(config), async (req: ApiRequest<'createMemberAccount'>, res: ApiResponse<'createMemberAccount'>) => {
    const created = await auth.createForMember(req.auth, req.body);
    auditDetails(res, {
      target: { kind: 'member', id: String(created._id) },
      before: null,
      after: { username: created.username, email: created.email, status: 'waiting' },
    });
    res.status(201).json({ message: MESSAGES.memberCreated, member: toMemberSummaryDto(created, config.adminEmails) });
  });

  router.post('/auth/signin', async (req: ApiRequest<'signin'>, res: ApiResponse<'signin'>) => {
    const result = await auth.signin(req.body.email, req.body.password, address(req));
    if ('pendingActivation' in result) {
      res.json(pendingActivation());
      return;
    }
    await sendSignedIn(res, result, MESSAGES.success);
  });

  router.post('/auth/confirm', async (req: ApiRequest<'confirmAccount'>, res) => {
    await sendSignedIn(res, await auth.confirm(req.body.token), MESSAGES.activated);
  });

  router.get('/auth/confirm-email/:email', async (req: ApiRequest<'resendActivationEmail'>, res: ApiResponse<'resendActivationEmail'>) => {
    await auth.resendActivation(req.params.email, address(req));
    res.json({ message: MESSAGES.emailSent });
  });

  router.post('/auth/request-reset-password', async (req: ApiRequest<'requestPasswordReset'>, res: ApiResponse<'requestPasswordReset'>) => {
    await auth.requestReset(req.body.email, address(req));
    res.json({ message: MESSAGES.emailSent });
  });

  router.post('/auth/reset-password', async (req: ApiRequest<'resetPassword'>, res: ApiResponse<'resetPassword'>) => {
    await auth.resetPassword(req.body.token, req.body.newPassword, req.body.passwordConfirm);
    res.clearCookie(REFRESH_COOKIE, cookieOptions);
    res.json({ message: MESSAGES.passwordReset });
  });

  router.post('/auth/check-loggedin', async (req, res) => {
    try {
      await sendSignedIn(res, await auth.refresh(refreshCookie(req)), MESSAGES.success);
    } catch (err) {
      res.clearCookie(REFRESH_COOKIE, cookieOptions);
      throw err;
    }
  });

  router.post('/auth/logout', async (req, res: ApiResponse<'logout'>) => {
    await auth.logout(refreshCookie(req));
    res.clearCookie(REFRESH_COOKIE, cookieOptions);
    res.json({ message: MESSAGES.loggedOut });
  });

  router.post('/user-setting/reset-password/:id', requireAuth(config), async (req: ApiRequest<'changePassword'>, res) => {
    await sendSignedIn(res, await auth.changePassword(req.auth!, req.params.id, req.body.password, req.body.newPassword), MESSAGES.success);
  });

  router.post('/auth/logout-all', requireAuth(config), async (req, res: ApiResponse<'logoutAll'>) => {
    await auth.logoutEverywhere(req.auth!.userId);
    res.clearCookie(REFRESH_COOKIE, cookieOptions);
    res.json({ message: MESSAGES.loggedOutEverywhere });
  });

  router.post('/auth/google-signin', async (req: ApiRequest<'googleSignin'>, res) => {
    const profile = await verifyGoogleCredential(config, req.body.credential);
    await sendSignedIn(res, await auth.socialSignin(profile), MESSAGES.success);
  });

  router.post('/auth/facebook-signin', async (req: ApiRequest<'facebookSignin'>, res) => {
    const profile = await verifyFacebookToken(config, req.body.accessToken, req.body.userID);
    await sendSignedIn(res, await auth.socialSignin(profile), MESSAGES.success);
  });

  router.get('/auth/providers', (_req, res: ApiResponse<'getAuthProviders'>) => {
    res.json({
      google: config.google ? { clientId: config.google.clientId } : null,
      facebook: config.facebook ? { appId: config.facebook.appId } : null,
    });
  });

  return router;
}
