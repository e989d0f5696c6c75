import { Router } from 'express';
import type { AuthConfig } from '../../config';
import { auditDetails } from '../../lib/audit-details';
import type { ApiRequest, ApiResponse } from '../../lib/openapi-types';
import { sendPublicJson } from '../../lib/public-responses';
import { requireAuth } from '../users';
import { toNativePostDto, toPageMetaDto, toPageUiDto } from './cms.mapper';
import * as cms from './cms.service';

/** The CMS: what visitors read (pages, posts, metadata, the footer), and the admins' editing of pages and posts. */
export function cmsRouter(config: AuthConfig): Router {
  const router = Router();
  const signedIn = requireAuth(config);

  router.get('/native-posts', async (req: ApiRequest<'listNativePosts'>, res: ApiResponse<'listNativePosts'>) => {
    sendPublicJson(req, res, await cms.listPublishedPosts(req.query));
  });

  router.get('/native-posts/:slug', async (req: ApiRequest<'getNativePost'>, res: ApiResponse<'getNativePost'>) => {
    sendPublicJson(req, res, { post: toNativePostDto(await cms.getPublishedPost(req.params.slug)) });
  });

  router.get('/cms-pages/:page', async (req: ApiRequest<'getCmsPage'>, res: ApiResponse<'getCmsPage'>) => {
    sendPublicJson(req, res, { page: await cms.getPage(req.params.page) });
  });

  router.get('/pages-metas/:page', async (req: ApiRequest<'getPageMeta'>, res: ApiResponse<'getPageMeta'>) => {
    // Asked by every page as it opens, the same for every visitor: a kept answer, as the content pages are.
    sendPublicJson(req, res, { pageMeta: toPageMetaDto(await cms.getPageMeta(req.params.page)) });
  });

  router.get('/page-ui/:name', async (req: ApiRequest<'getPageUi'>, res: ApiResponse<'getPageUi'>) => {
    sendPublicJson(req, res, { pageUi: toPageUiDto(await cms.getPageUi(req.params.name)) });
  });

  router.get('/admin/cms-pages/:page', signedIn, async (req: ApiRequest<'getCmsPageSource'>, res: ApiResponse<'getCmsPageSource'>) => {
    res.json({ page: await cms.getPageSource(req.auth!, req.params.page) });
  });

  router.put('/admin/cms-pages/:page', signedIn, async (req: ApiRequest<'updateCmsPage'>, res: ApiResponse<'updateCmsPage'>) => {
    const { page, before, changedSections } = await cms.updatePage(req.auth!, req.params.page, req.body);
    auditDetails(res, {
      target: { kind: 'page', id: page.id },
      before: { title: before.title, description: before.description },
      after: { title: page.title, description: page.description, changedSections: changedSections.join(', ') || null },
    });
    res.json({ message: cms.CMS_MESSAGES.pageSaved, page });
  });

  router.get('/admin/native-posts', signedIn, async (req: ApiRequest<'listAllNativePosts'>, res: ApiResponse<'listAllNativePosts'>) => {
    res.json({ posts: await cms.listAllPosts(req.auth!) });
  });

  router.put('/admin/native-posts/:slug', signedIn, async (req: ApiRequest<'saveNativePost'>, res: ApiResponse<'saveNativePost'>) => {
    const { post, before, message } = await cms.savePost(req.auth!, req.params.slug, req.body);
    auditDetails(res, {
      target: { kind: 'post', id: post.slug },
      before: before ? { title: before.title, status: before.status } : null,
      after: { title: post.title, status: post.status },
    });
    res.json({ message, post });
  });

  router.post('/admin/cms-preview', signedIn, (req: ApiRequest<'previewMarkdown'>, res: ApiResponse<'previewMarkdown'>) => {
    res.json({ html: cms.previewMarkdown(req.auth!, req.body.markdown) });
  });

  return router;
}
