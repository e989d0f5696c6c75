import { Router } from 'express';
import type { AuthConfig } from '../../config';
import type { ApiRequest, ApiResponse } from '../../lib/openapi-types';
import { sendPublicJson } from '../../lib/public-responses';
import { optionalAuth, requireAuth } from '../users';
import { addComment, addShare, allComments, commentFeed, commentsOfMember, commentsOfPiece, removeComment } from './comments.service';

/** The comment calls: write, share, remove, and the lists. */
export function commentsRouter(config: AuthConfig): Router {
  const router = Router();
  const signedIn = requireAuth(config);
  const maybeSignedIn = optionalAuth(config);

  router.post('/comment/add', signedIn, async (req: ApiRequest<'addComment'>, res: ApiResponse<'addComment'>) => {
    res.status(201).json(await addComment(req.auth!, req.body));
  });

  router.post('/comment/add-share', signedIn, async (req: ApiRequest<'addShare'>, res: ApiResponse<'addShare'>) => {
    res.status(201).json(await addShare(req.auth!, req.body));
  });

  router.post('/comment/delete/:commentId', signedIn, async (req: ApiRequest<'deleteComment'>, res: ApiResponse<'deleteComment'>) => {
    res.json(await removeComment(req.auth!, req.params.commentId));
  });

  router.get('/comment/get-by-content/:id', maybeSignedIn, async (req: ApiRequest<'getCommentsByContent'>, res: ApiResponse<'getCommentsByContent'>) => {
    const page = await commentsOfPiece(req.params.id, req.auth, req.query.cursor, req.query.limit);
    // A visitor's page is the same for every visitor: kept ready for a second (a signed-in caller may see pieces
    // that visitors may not, so their pages are never kept).
    if (req.auth) res.json(page);
    else sendPublicJson(req, res, page);
  });

  router.get('/comment/get-by-user/:id', maybeSignedIn, async (req: ApiRequest<'getCommentsByUser'>, res: ApiResponse<'getCommentsByUser'>) => {
    res.json(await commentsOfMember(req.params.id, req.auth, req.query.cursor, req.query.limit));
  });

  router.get('/comment/get-feed', signedIn, async (req: ApiRequest<'getCommentFeed'>, res: ApiResponse<'getCommentFeed'>) => {
    res.json(await commentFeed(req.auth!, req.query.cursor, req.query.limit));
  });

  router.get('/comment/get-all', signedIn, async (req: ApiRequest<'getAllComments'>, res: ApiResponse<'getAllComments'>) => {
    res.json(await allComments(req.auth!, req.query.cursor, req.query.limit));
  });

  return router;
}
