import { Router } from 'express';
import type { AuthConfig } from '../../config';
import type { ApiRequest, ApiResponse } from '../../lib/openapi-types';
import { sendPublicJson } from '../../lib/public-responses';
import { optionalAuth, requireAuth } from '../users';
import type { FeedsService } from './feeds.service';

/** The read calls of discovery: feeds, search, artists, profiles and the detail modal. */
export function feedsRouter(config: AuthConfig, feeds: FeedsService): Router {
  const router = Router();
  const maybeAuth = optionalAuth(config);

  router.get('/content/get-featured', async (req: ApiRequest<'getFeaturedContents'>, res: ApiResponse<'getFeaturedContents'>) => {
    const { orderBy, subTag, ...query } = req.query;
    sendPublicJson(req, res, await feeds.feed({ kind: orderBy === 'new' ? 'new' : 'featured', ...query, subTags: subTag ? [subTag] : undefined }));
  });

  router.get('/content/get-all', async (req: ApiRequest<'getAllContents'>, res: ApiResponse<'getAllContents'>) => {
    sendPublicJson(req, res, await feeds.feed({ kind: 'new', ...req.query }));
  });

  router.get('/content/get-by-kind/:kind', async (req: ApiRequest<'getContentsByKind'>, res: ApiResponse<'getContentsByKind'>) => {
    const { subTag, ...query } = req.query;
    sendPublicJson(req, res, await feeds.feed({ kind: req.params.kind, ...query, subTags: subTag ? [subTag] : undefined }));
  });

  router.get('/content/get-by-tag', async (req: ApiRequest<'getContentsByTag'>, res: ApiResponse<'getContentsByTag'>) => {
    const { kind = 'featured', ...query } = req.query;
    sendPublicJson(req, res, await feeds.feed({ kind, ...query }));
  });

  router.post('/content/get-by-subtags', async (req: ApiRequest<'getContentsBySubTags'>, res: ApiResponse<'getContentsBySubTags'>) => {
    const { kind = 'featured', ...query } = req.body;
    sendPublicJson(req, res, await feeds.feed({ kind, ...query }));
  });

  router.get('/content/search-contents', async (req: ApiRequest<'searchContents'>, res: ApiResponse<'searchContents'>) => {
    const { orderBy = 'popular', ...query } = req.query;
    sendPublicJson(req, res, await feeds.feed({ kind: orderBy, ...query }));
  });

  router.get('/content/get-all-titles', async (req: ApiRequest<'getTitleSuggestions'>, res: ApiResponse<'getTitleSuggestions'>) => {
    sendPublicJson(req, res, await feeds.suggestions(req.query.q, Number(req.query.limit ?? 7)));
  });

  router.get('/content/get-all-owners', async (req: ApiRequest<'searchOwners'>, res: ApiResponse<'searchOwners'>) => {
    res.json(await feeds.searchOwners(req.query.q, req.query.cursor, req.query.limit));
  });

  router.get('/content/get-by-username/:username', maybeAuth, async (req: ApiRequest<'getContentsByUsername'>, res: ApiResponse<'getContentsByUsername'>) => {
    res.json(await feeds.byUsername(req.params.username, req.auth, req.query.type, req.query.cursor, req.query.limit));
  });

  router.get('/content/get-supported/:id', requireAuth(config), async (req: ApiRequest<'getSupportedContents'>, res: ApiResponse<'getSupportedContents'>) => {
    res.json(await feeds.supported(req.params.id, req.auth!, req.query.cursor, req.query.limit));
  });

  router.get('/content/top50/:username', maybeAuth, async (req: ApiRequest<'getTop50Chart'>, res: ApiResponse<'getTop50Chart'>) => {
    res.json(await feeds.top50(req.params.username, req.auth));
  });

  router.get('/content/detail/:contentId/for-user/:userId', maybeAuth, async (req: ApiRequest<'getContentDetail'>, res: ApiResponse<'getContentDetail'>) => {
    res.json(await feeds.detail(req.params.contentId, req.params.userId, req.auth));
  });

  router.get('/content/get-by-link/:username/:slug', maybeAuth, async (req: ApiRequest<'getContentByLink'>, res: ApiResponse<'getContentByLink'>) => {
    res.json({ content: await feeds.byLink(req.params.username, req.params.slug, req.auth) });
  });

  router.get('/user/get-users', async (req: ApiRequest<'getArtists'>, res: ApiResponse<'getArtists'>) => {
    res.json(await feeds.artists(req.query.cursor, req.query.limit));
  });

  router.get('/user/get-users-by-fans', async (req: ApiRequest<'getArtistsByFans'>, res: ApiResponse<'getArtistsByFans'>) => {
    res.json(await feeds.artistsByFans(req.query.cursor, req.query.limit));
  });

  router.get('/user/get-trending-users', async (req: ApiRequest<'getTrendingArtists'>, res: ApiResponse<'getTrendingArtists'>) => {
    res.json(await feeds.trendingArtists(req.query.cursor, req.query.limit));
  });

  router.get('/user/profile/:username', async (req: ApiRequest<'getProfileByUsername'>, res: ApiResponse<'getProfileByUsername'>) => {
    res.json(await feeds.profile(req.params.username));
  });

  return router;
}
