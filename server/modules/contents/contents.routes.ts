import { Router, type Request } from 'express';
import type { AuthConfig } from '../../config';
import { MESSAGES } from '../../../generated/validation';
import { auditDetails } from '../../lib/audit-details';
import { notFound } from '../../lib/errors';
import type { ApiRequest, ApiResponse } from '../../lib/openapi-types';
import { acceptOneFile, DEFAULT_UPLOAD_TEMP_DIR, storeTempFile } from '../media';
import { optionalAuth, requireAuth } from '../users';
import { consumeLimit } from '../../lib/rate-limit';
import { issueUploadPass, requireUploadPass, UPLOAD_PASS_HEADER } from '../../lib/upload-pass';
import { FILE_MESSAGES, type PieceFileKind } from './contents.files';
import type { ProjectOwnerCheck } from './contents.projects';
import { TOP50_MESSAGES, TOP50_VISITOR_LIMITS, type ContentsService, type WaitingAccountFor } from './contents.service';

/**
 * `ownsProject` is the projects module's answer to whether a project is the piece owner's, and `waitingAccountFor`
 * the auth module's waiting account of a visitor's email (both handed in by the app, so that contents imports
 * neither).
 */
export function contentsRouter(config: AuthConfig, contents: ContentsService, ownsProject: ProjectOwnerCheck, waitingAccountFor: WaitingAccountFor): Router {
  const router = Router();
  const auth = requireAuth(config);
  const maybeAuth = optionalAuth(config);

  router.post('/content/save', auth, async (req: ApiRequest<'saveContent'>, res: ApiResponse<'saveContent'>) => {
    const saved = await contents.save(req.auth!, req.body, 'classic');
    res.status(201).json({ content: await contents.dto(saved, req.auth), message: MESSAGES.contentSaved });
  });

  router.post('/content/save-top50', maybeAuth, async (req: ApiRequest<'saveTop50Content'>, res: ApiResponse<'saveTop50Content'>) => {
    if (req.auth) {
      const saved = await contents.saveTop50(req.auth, req.body);
      res.status(201).json({ content: await contents.dto(saved, req.auth), message: MESSAGES.contentSaved });
      return;
    }
    const pass = () => requireUploadPass(config.keys.uploadPasses, req.headers[UPLOAD_PASS_HEADER]);
    const saved = await contents.saveVisitorTop50(pass, req.body, req.ip ?? 'unknown', waitingAccountFor);
    res.status(201).json({ content: await contents.dto(saved, undefined), message: TOP50_MESSAGES.checkEmail });
  });

  router.post('/content/top50-upload-pass', async (req: ApiRequest<'createTop50UploadPass'>, res: ApiResponse<'createTop50UploadPass'>) => {
    await consumeLimit(`top50:pass:ip:${req.ip ?? 'unknown'}`, TOP50_VISITOR_LIMITS.passes, TOP50_MESSAGES.tooMany);
    const artist = await contents.chartArtist(req.body.artistId);
    const { pass, expiresAt } = issueUploadPass(config.keys.uploadPasses, String(artist._id));
    res.status(201).json({ pass, expiresAt: expiresAt.toISOString() });
  });

  router.post('/content/save-artist', auth, async (req: ApiRequest<'saveArtistContent'>, res: ApiResponse<'saveArtistContent'>) => {
    const saved = await contents.save(req.auth!, req.body, 'artist', req.body.userId);
    res.status(201).json({ content: await contents.dto(saved, req.auth), message: MESSAGES.contentSaved });
  });

  router.post('/content/update-description', auth, async (req: ApiRequest<'updateContentDescription'>, res: ApiResponse<'updateContentDescription'>) => {
    const updated = await contents.updateDescription(req.auth!, req.body.contentId, req.body.description);
    res.json({ content: await contents.dto(updated, req.auth), message: MESSAGES.contentSaved });
  });

  router.post('/content/update-setting', auth, async (req: ApiRequest<'updateContentSetting'>, res: ApiResponse<'updateContentSetting'>) => {
    const updated = await contents.updateSetting(req.auth!, req.body.contentId, req.body.setting);
    res.json({ content: await contents.dto(updated, req.auth), message: MESSAGES.contentSaved });
  });

  router.post('/content/update-projectid', auth, async (req: ApiRequest<'updateContentProject'>, res: ApiResponse<'updateContentProject'>) => {
    const updated = await contents.updateProject(req.auth!, req.body.contentId, req.body.projectId, ownsProject);
    res.json({ content: await contents.dto(updated, req.auth), message: MESSAGES.contentSaved });
  });

  router.post('/content/delete', auth, async (req: ApiRequest<'deleteContent'>, res: ApiResponse<'deleteContent'>) => {
    await contents.remove(req.auth!, req.body.contentId);
    res.json({ message: MESSAGES.contentRemoved });
  });

  router.post('/content/trend', auth, async (req: ApiRequest<'trendContent'>, res: ApiResponse<'trendContent'>) => {
    const { message, audit } = await contents.setFeatured(req.auth!, req.body.contentId, true);
    auditDetails(res, audit);
    res.json({ message });
  });

  router.post('/content/remove', auth, async (req: ApiRequest<'unfeatureContent'>, res: ApiResponse<'unfeatureContent'>) => {
    const { message, audit } = await contents.setFeatured(req.auth!, req.body.contentId, false);
    auditDetails(res, audit);
    res.json({ message });
  });

  router.get('/admin/pieces', auth, async (req: ApiRequest<'listAdminPieces'>, res: ApiResponse<'listAdminPieces'>) => {
    res.json(await contents.adminPieces(req.auth!, req.query, config.adminRemoveEmails));
  });

  router.post('/admin/pieces/hide', auth, async (req: ApiRequest<'hidePiece'>, res: ApiResponse<'hidePiece'>) => {
    const { message, audit } = await contents.setHiddenByAdmin(req.auth!, req.body.contentId, true);
    auditDetails(res, audit);
    res.json({ message });
  });

  router.post('/admin/pieces/restore', auth, async (req: ApiRequest<'restorePiece'>, res: ApiResponse<'restorePiece'>) => {
    const { message, audit } = await contents.setHiddenByAdmin(req.auth!, req.body.contentId, false);
    auditDetails(res, audit);
    res.json({ message });
  });

  router.post('/admin/pieces/delete', auth, async (req: ApiRequest<'deletePieceAsAdmin'>, res: ApiResponse<'deletePieceAsAdmin'>) => {
    const { message, audit } = await contents.removeAsAdmin(req.auth!, req.body.contentId, config.adminRemoveEmails);
    auditDetails(res, audit);
    res.json({ message });
  });

  router.get('/content/versions/:id', auth, async (req: ApiRequest<'getContentVersions'>, res: ApiResponse<'getContentVersions'>) => {
    res.json({ versions: await contents.fileVersions(req.auth!, req.params.id) });
  });

  router.post('/content/versions/:id/restore/:versionId', auth, async (req: ApiRequest<'restoreContentVersion'>, res: ApiResponse<'restoreContentVersion'>) => {
    const restored = await contents.restoreFile(req.auth!, req.params.id, req.params.versionId);
    res.json({ content: await contents.dto(restored, req.auth), message: FILE_MESSAGES.restored });
  });

  router.get('/content/get-by-id/:id', maybeAuth, async (req: ApiRequest<'getContentById'>, res: ApiResponse<'getContentById'>) => {
    res.json({ content: await contents.dto(await contents.getVisible(req.params.id, req.auth), req.auth) });
  });

  router.get('/content/count/:id', maybeAuth, async (req: ApiRequest<'countUserContents'>, res: ApiResponse<'countUserContents'>) => {
    res.json({ contentsCount: await contents.countFor(req.params.id, req.auth) });
  });

  return router;
}

/** A piece's id in a path the contract validator does not see (a multipart call): the contract's form, lower-cased. */
function pieceIdOf(req: Request): string {
  const id = String(req.params.id);
  if (!/^[0-9a-fA-F]{24}$/.test(id)) throw notFound('Content not found');
  return id.toLowerCase();
}

/**
 * Replacing a piece's audio or picture: multipart calls, which run before the contract validator (it cannot stream
 * to disk), as the upload calls do. The member's limit is counted and the piece checked (theirs, not an NFT) before
 * the body is read; the file then streams to `tempDir` with the upload's limit for its kind, and goes through the
 * same pipeline as an upload.
 */
export function contentFilesRouter(config: AuthConfig, contents: ContentsService, tempDir = DEFAULT_UPLOAD_TEMP_DIR): Router {
  const router = Router();
  const auth = requireAuth(config);
  for (const kind of ['audio', 'image'] as const satisfies PieceFileKind[]) {
    router.post(
      `/api/v2/content/file/:id/${kind}`,
      auth,
      async (req, _res, next) => {
        await contents.beginFileChange(req.auth!, pieceIdOf(req), kind);
        next();
      },
      acceptOneFile(kind, tempDir),
      async (req: Request, res: ApiResponse<'replaceContentImage'>) => {
        const replaced = await storeTempFile(req.file!, (file) => contents.replaceFile(req.auth!, pieceIdOf(req), kind, file));
        res.json({ content: await contents.dto(replaced, req.auth), message: FILE_MESSAGES.replaced });
      },
    );
  }
  return router;
}
