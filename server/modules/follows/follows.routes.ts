import { Router } from 'express';
import type { AuthConfig } from '../../config';
import type { ApiRequest, ApiResponse } from '../../lib/openapi-types';
import { optionalAuth, requireAuth } from '../users';
import { followCounts, followPage, makeFollowing, removeFollower } from './follows.service';

/** The follow calls: follow or unfollow, take a member off one's followers, counts, and the follower and following lists. */
export function followsRouter(config: AuthConfig): Router {
  const router = Router();

  router.post('/follow/make-following', requireAuth(config), async (req: ApiRequest<'makeFollowing'>, res: ApiResponse<'makeFollowing'>) => {
    res.json(await makeFollowing(req.auth!, req.body));
  });

  router.post('/follow/remove-follower/:id', requireAuth(config), async (req: ApiRequest<'removeFollower'>, res: ApiResponse<'removeFollower'>) => {
    res.json(await removeFollower(req.auth!, req.params.id));
  });

  router.get('/follow/get-count/:id', optionalAuth(config), async (req: ApiRequest<'getFollowCount'>, res: ApiResponse<'getFollowCount'>) => {
    res.json(await followCounts(req.params.id, req.auth));
  });

  router.get('/follow/get-followers/:userId/myuserId/:id', optionalAuth(config), async (req: ApiRequest<'getFollowers'>, res: ApiResponse<'getFollowers'>) => {
    res.json(await followPage('followers', req.params.userId, req.params.id, req.auth, req.query.cursor, req.query.limit));
  });

  router.get(
    '/follow/get-followings/:userId/myuserId/:id',
    optionalAuth(config),
    async (req: ApiRequest<'getFollowings'>, res: ApiResponse<'getFollowings'>) => {
      res.json(await followPage('followings', req.params.userId, req.params.id, req.auth, req.query.cursor, req.query.limit));
    },
  );

  return router;
}
