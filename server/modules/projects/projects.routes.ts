import { Router } from 'express';
import type { AuthConfig } from '../../config';
import { MESSAGES } from '../../../generated/validation';
import type { ApiRequest, ApiResponse } from '../../lib/openapi-types';
import { optionalAuth, requireAuth } from '../users';
import type { ProjectsService } from './projects.service';

/** The project calls: create, add a piece, rename, remove, and the lists. */
export function projectsRouter(config: AuthConfig, projects: ProjectsService): Router {
  const router = Router();
  const signedIn = requireAuth(config);
  const maybeSignedIn = optionalAuth(config);

  router.post('/project/save', signedIn, async (req: ApiRequest<'saveProject'>, res: ApiResponse<'saveProject'>) => {
    res.status(201).json(await projects.save(req.auth!, req.body));
  });

  router.post('/project/add-to-project', signedIn, async (req: ApiRequest<'addToProject'>, res: ApiResponse<'addToProject'>) => {
    res.json(await projects.addPiece(req.auth!, req.body));
  });

  router.post('/project/update', signedIn, async (req: ApiRequest<'updateProject'>, res: ApiResponse<'updateProject'>) => {
    res.json(await projects.rename(req.auth!, req.body));
  });

  router.post('/project/delete', signedIn, async (req: ApiRequest<'deleteProject'>, res: ApiResponse<'deleteProject'>) => {
    await projects.remove(req.auth!, req.body.projectId);
    res.json({ message: MESSAGES.projectRemoved });
  });

  // Before `/project/:userId`, which would take this path's last part for a member's id.
  router.get('/project/project-for-ranking', async (_req: ApiRequest<'getProjectsForRanking'>, res: ApiResponse<'getProjectsForRanking'>) => {
    res.json(await projects.ranking());
  });

  router.get('/project/content/:id', maybeSignedIn, async (req: ApiRequest<'getProjectContents'>, res: ApiResponse<'getProjectContents'>) => {
    res.json(await projects.contentsOf(req.params.id, req.auth));
  });

  router.get('/project/:userId', maybeSignedIn, async (req: ApiRequest<'getProjectsOfUser'>, res: ApiResponse<'getProjectsOfUser'>) => {
    res.json(await projects.ofMember(req.params.userId, req.auth));
  });

  return router;
}
