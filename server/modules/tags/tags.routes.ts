import { Router } from 'express';
import type { ApiRequest, ApiResponse } from '../../lib/openapi-types';
import { sendPublicJson } from '../../lib/public-responses';
import { toTagDto, toTagHistoryDto } from './tags.mapper';
import * as tags from './tags.service';

export const tagsRouter = Router();

tagsRouter.get('/tag/get-all', async (req: ApiRequest<'getAllTags'>, res: ApiResponse<'getAllTags'>) => {
  const list = await tags.listTags({ parent: req.query.parent });
  sendPublicJson(req, res, { tags: list.map(toTagDto) });
});

tagsRouter.get('/tag/label/:label', async (req: ApiRequest<'getTagByLabel'>, res: ApiResponse<'getTagByLabel'>) => {
  res.json({ tag: toTagDto(await tags.getTagByLabel(req.params.label)) });
});

tagsRouter.get('/tag/get-top-sub-tags/:id', async (req: ApiRequest<'getTopSubTags'>, res: ApiResponse<'getTopSubTags'>) => {
  const list = await tags.getTopSubTags(req.params.id, req.query.limit ?? 10);
  res.json({ tags: list.map(toTagDto) });
});

tagsRouter.get('/tag/:id', async (req: ApiRequest<'getTagById'>, res: ApiResponse<'getTagById'>) => {
  res.json({ tag: toTagDto(await tags.getTag(req.params.id)) });
});

tagsRouter.get('/tag-history/:id/:period', async (req: ApiRequest<'getTagHistory'>, res: ApiResponse<'getTagHistory'>) => {
  const { id, period } = req.params;
  const history = await tags.getTagHistory(id, period);
  res.json({ tagId: id, period, tagHistory: history.map(toTagHistoryDto) });
});
