import { Router, type RequestHandler } from 'express';
import type { AuthConfig } from '../../config';
import { notFound } from '../../lib/errors';
import type { ApiRequest, ApiResponse } from '../../lib/openapi-types';
import { consumeLimit, type Limit } from '../../lib/rate-limit';
import { requireSelfOrAdmin } from '../../lib/permissions';
import { requireAuth } from './users.guards';
import { roleOf, toMemberMatchDto, toPublicUserDto, toUserDto, toUserExtDto } from './users.mapper';
import * as users from './users.service';
import * as settings from './users.settings';
import { sendPublicJson } from '../../lib/public-responses';

/** Account look-ups answer whether an address or name is in use: limited per client address. */
export const LOOKUP_LIMIT: Limit = { max: 60, windowMs: 60_000 };

/** How many members the recipient search answers when the caller names no limit. */
const MEMBER_MATCHES_DEFAULT = 8;
/**
 * Recipient searches per member in a minute. The modal asks once typing pauses, so a person stays far below it;
 * each search reads the member list, so a script is stopped.
 */
export const MEMBER_SEARCH_LIMIT: Limit = { max: 60, windowMs: 60_000 };

export function usersRouter(config: AuthConfig): Router {
  const router = Router();
  const limitLookups: RequestHandler = async (req, _res, next) => {
    await consumeLimit(`lookup:ip:${req.ip}`, LOOKUP_LIMIT, 'Too many look-ups. Please wait and try again.');
    next();
  };

  router.get('/user/get-user-by-email/:email', limitLookups, async (req: ApiRequest<'getUserByEmail'>, res: ApiResponse<'getUserByEmail'>) => {
    if (!(await users.emailExists(req.params.email))) throw notFound('No account uses this email.');
    res.json({ exists: true });
  });

  router.get('/user/get-user-by-username/:username', limitLookups, async (req: ApiRequest<'getUserByUsername'>, res: ApiResponse<'getUserByUsername'>) => {
    if (!(await users.usernameTaken(req.params.username))) throw notFound('This username is free.');
    res.json({ exists: true });
  });

  router.get('/user/get-data/:id', async (req: ApiRequest<'getUserData'>, res: ApiResponse<'getUserData'>) => {
    res.json({ user: toPublicUserDto(await users.getUser(req.params.id)) });
  });

  router.get('/user/search-members', requireAuth(config), async (req, res: ApiResponse<'searchMembers'>) => {
    await consumeLimit(`member-search:${req.auth!.userId}`, MEMBER_SEARCH_LIMIT, 'Too many searches. Please wait and try again.');
    // After a middleware, Express types the query as any parsed query string; the contract validator has already
    // checked it (a text `q`, a `limit` from 1 to 20).
    const { q, limit = MEMBER_MATCHES_DEFAULT } = req.query as unknown as ApiRequest<'searchMembers'>['query'];
    const members = await users.membersByUsernameStart(q, req.auth!.userId, limit);
    res.json({ members: members.map(toMemberMatchDto) });
  });

  router.get('/user-setting/get-ext/:id', requireAuth(config), async (req: ApiRequest<'getUserExt'>, res: ApiResponse<'getUserExt'>) => {
    requireSelfOrAdmin(req.auth, req.params.id, settings.SETTINGS_MESSAGES.noMember);
    res.json({ userExt: toUserExtDto(await users.getUserExt(req.params.id)) });
  });

  router.get('/user-setting/countries', (req: ApiRequest<'getCountries'>, res: ApiResponse<'getCountries'>) => {
    sendPublicJson(req, res, settings.countries());
  });

  router.get('/user-setting/regions/:country', (req: ApiRequest<'getRegions'>, res: ApiResponse<'getRegions'>) => {
    sendPublicJson(req, res, settings.regionsOf(req.params.country));
  });

  router.post('/user-setting/update-personal/:id', requireAuth(config), async (req: ApiRequest<'updatePersonal'>, res: ApiResponse<'updatePersonal'>) => {
    const user = await settings.updatePersonal(req.auth!, req.params.id, req.body);
    res.json({ message: 'Success', user: toUserDto(user, roleOf(config.adminEmails, user.email)) });
  });

  router.post('/user-setting/update-social/:id', requireAuth(config), async (req: ApiRequest<'updateSocial'>, res: ApiResponse<'updateSocial'>) => {
    res.json(await settings.updateSocial(req.auth!, req.params.id, req.body));
  });

  router.post('/user-setting/update-regional/:id', requireAuth(config), async (req: ApiRequest<'updateRegional'>, res: ApiResponse<'updateRegional'>) => {
    res.json({ userExt: toUserExtDto(await settings.updateRegional(req.auth!, req.params.id, req.body)) });
  });

  return router;
}
