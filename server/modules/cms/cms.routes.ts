import { Router } from 'express';
import type { ApiRequest, ApiResponse } from '../../lib/openapi-types';
import { toNativePostDto, toPageMetaDto, toPageUiDto } from './cms.mapper';
import * as cms from './cms.service';

export const cmsRouter = Router();

cmsRouter.get('/native-posts/:slug', async (req: ApiRequest<'getNativePost'>, res: ApiResponse<'getNativePost'>) => {
  res.json({ post: toNativePostDto(await cms.getPublishedPost(req.params.slug)) });
});

cmsRouter.get('/pages-metas/:page', async (req: ApiRequest<'getPageMeta'>, res: ApiResponse<'getPageMeta'>) => {
  res.json({ pageMeta: toPageMetaDto(await cms.getPageMeta(req.params.page)) });
});

cmsRouter.get('/page-ui/:name', async (req: ApiRequest<'getPageUi'>, res: ApiResponse<'getPageUi'>) => {
  res.json({ pageUi: toPageUiDto(await cms.getPageUi(req.params.name)) });
});
