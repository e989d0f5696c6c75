/**
 * Projects: a member groups some of their own pieces under a name. The project document is this module's; which
 * pieces are in it is each piece's `projectId`, which the contents module writes when asked here. Every piece a
 * project shows follows its own visibility (contents' canView and the feeds' mapping), so a private,
 * followers-only or taken-down piece, or a count its owner hides, never shows through a project.
 *
 * A member's projects (`project/{userId}`, which the side menu asks on every signed-in page) and a project's pieces
 * (`project/content/{id}`) are read by `_id` only: the member's list of projects (projects.lists.ts), then each
 * project's list of pieces (kept by the contents module), then each piece. Both lists are bounded (at most
 * MAX_PROJECTS_PER_MEMBER projects of at most MAX_PIECES_PER_PROJECT pieces), so these reads do not grow with the
 * catalogue. The ranking (`project/project-for-ranking`) still scans the listed pieces.
 */
import { Types } from 'mongoose';
import { MESSAGES } from '../../../generated/validation';
import type { AuthContext } from '../../lib/auth-context';
import { requireOwnerOrAdmin, requireSelfOrAdmin } from '../../lib/permissions';
import { AppError, notFound } from '../../lib/errors';
import type { Schemas } from '../../lib/openapi-types';
import { anyOf, ours } from '../../lib/query';
import {
  canView,
  clearProject,
  contentReads,
  piecesOfProject,
  setPieceProject,
  setPiecesProject,
  shownCount,
  type ContentDoc,
  type ContentsService,
} from '../contents';
import { type UserDoc, userReads } from '../users';
import { listProject, projectsOfMember, unlistProject } from './projects.lists';
import { toProjectDto } from './projects.mapper';
import { ProjectModel, type ProjectDoc } from './projects.model';

export const PROJECT_MESSAGES = {
  notFound: 'Project not found',
  pieceNotFound: 'Content not found',
  memberNotFound: 'User not found',
  badContentIds: 'contentIds must be a JSON list of piece ids.',
} as const;

/** How many projects the ranking answers. */
export const RANKING_SIZE = 50;
/** How many pieces one project/save may name. */
const MAX_PIECES_PER_SAVE = 200;
const OBJECT_ID = /^[0-9a-fA-F]{24}$/;

function badRequest(message: string, path: string): never {
  throw new AppError(400, 'bad_request', message, [{ path, message }]);
}

const nameOf = (projectName: string) => projectName.trim() || badRequest(MESSAGES.projectNameRequired, 'projectName');

/** The ids a `contentIds` text names, without repeats; anything but a JSON list of piece ids answers 400. */
function parseContentIds(text: string): string[] {
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch {
    badRequest(PROJECT_MESSAGES.badContentIds, 'contentIds');
  }
  if (!Array.isArray(list) || list.length > MAX_PIECES_PER_SAVE || !list.every((id) => typeof id === 'string' && OBJECT_ID.test(id))) {
    badRequest(PROJECT_MESSAGES.badContentIds, 'contentIds');
  }
  return [...new Set((list as string[]).map((id) => id.toLowerCase()))];
}

/** Whether the project exists and is `ownerId`'s: the check contents' update-projectid makes (one read by `_id`). */
export async function ownsProject(projectId: string, ownerId: string): Promise<boolean> {
  const project = await ProjectModel.findById(projectId, { userId: 1 }).lean<Pick<ProjectDoc, 'userId'>>();
  return Boolean(project && String(project.userId) === ownerId);
}

export function createProjectsService(contents: Pick<ContentsService, 'dto'>) {
  /** A project the caller may change (theirs, or any for an admin); anyone else's answers 404, as a missing one. */
  async function changeable(projectId: string, caller: AuthContext): Promise<ProjectDoc> {
    const project = await ProjectModel.findById(projectId).lean<ProjectDoc>();
    if (!project) throw notFound(PROJECT_MESSAGES.notFound);
    requireOwnerOrAdmin(caller, project.userId, PROJECT_MESSAGES.notFound);
    return project;
  }

  /** The piece, if it is `ownerId`'s; another member's piece answers 404, as a missing one. */
  async function pieceOf(ownerId: Types.ObjectId, contentId: string): Promise<ContentDoc> {
    const piece = await contentReads.byId<ContentDoc>(new Types.ObjectId(contentId));
    if (!piece || !piece.ownerId.equals(ownerId)) throw notFound(PROJECT_MESSAGES.pieceNotFound);
    return piece;
  }

  async function ownerNames(userId: Types.ObjectId) {
    const owner = await userReads.byId<Pick<UserDoc, 'fullName' | 'username'>>(userId, { fullName: 1, username: 1 });
    return { ownerName: owner?.fullName ?? '', ownerUsername: owner?.username ?? '' };
  }

  /** The pieces the caller may see, in the order given, mapped as the feeds map them (hidden counts stay hidden). */
  async function shown(pieces: ContentDoc[], caller: AuthContext | undefined): Promise<Schemas['Content'][]> {
    const seen = await Promise.all(pieces.map((piece) => canView(piece, caller)));
    return Promise.all(pieces.filter((_, i) => seen[i]).map((piece) => contents.dto(piece, caller)));
  }

  async function projectDto(project: ProjectDoc, caller: AuthContext | undefined) {
    const pieces = await shown(await piecesOfProject(project._id, project.userId), caller);
    return { dto: toProjectDto(project, { contents: pieces, ...(await ownerNames(project.userId)) }), pieces };
  }

  return {
    async save(caller: AuthContext, body: Schemas['SaveProjectRequest']): Promise<Schemas['ProjectSaved']> {
      requireSelfOrAdmin(caller, body.userId, PROJECT_MESSAGES.memberNotFound);
      const projectName = nameOf(body.projectName);
      const ids = parseContentIds(body.contentIds);
      const userId = new Types.ObjectId(body.userId);
      if (!(await userReads.byId(userId, { _id: 1 }))) throw notFound(PROJECT_MESSAGES.memberNotFound);
      const pieces = [];
      for (const id of ids) pieces.push(await pieceOf(userId, id));
      const project: ProjectDoc = { _id: new Types.ObjectId(), userId, projectName, createdAt: new Date() };
      await ProjectModel.create(project);
      await listProject(userId, project._id);
      await setPiecesProject(
        pieces.map((piece) => piece._id),
        project._id,
      );
      return { project: (await projectDto(project, caller)).dto, message: MESSAGES.projectAdded };
    },

    async addPiece(caller: AuthContext, body: Schemas['AddToProjectRequest']): Promise<Schemas['ProjectSaved']> {
      if (!body.projectId) badRequest(MESSAGES.projectRequired, 'projectId');
      const project = await changeable(body.projectId, caller);
      const piece = await pieceOf(project.userId, body.contentId);
      await setPieceProject(piece._id, project._id);
      return { project: (await projectDto(project, caller)).dto, message: MESSAGES.contentAddedToProject };
    },

    async rename(caller: AuthContext, body: Schemas['UpdateProjectNameRequest']): Promise<Schemas['ProjectSaved']> {
      const project = await changeable(body.projectId, caller);
      const projectName = nameOf(body.projectName);
      await ProjectModel.updateOne({ _id: project._id }, { $set: { projectName } });
      return { project: (await projectDto({ ...project, projectName }, caller)).dto, message: MESSAGES.projectRenamed };
    },

    /**
     * Removes the project; its pieces stay published, out of any project. The project goes first, so that no piece
     * can be added to it once its pieces are cleared.
     */
    async remove(caller: AuthContext, projectId: string): Promise<void> {
      const project = await changeable(projectId, caller);
      await ProjectModel.deleteOne({ _id: project._id });
      await unlistProject(project.userId, project._id);
      await clearProject(project._id);
    },

    async ofMember(userId: string, caller: AuthContext | undefined): Promise<Schemas['ProjectList']> {
      const ownerId = new Types.ObjectId(userId);
      const names = await ownerNames(ownerId);
      if (!names.ownerUsername) throw notFound(PROJECT_MESSAGES.memberNotFound);
      const projects = await projectsOfMember(ownerId);
      const shownOf = await Promise.all(projects.map(async (project) => shown(await piecesOfProject(project._id, project.userId), caller)));
      return { projects: projects.map((project, i) => toProjectDto(project, { contents: shownOf[i]!, ...names })) };
    },

    async contentsOf(projectId: string, caller: AuthContext | undefined): Promise<Schemas['ProjectContents']> {
      const project = await ProjectModel.findById(projectId).lean<ProjectDoc>();
      if (!project) throw notFound(PROJECT_MESSAGES.notFound);
      const { dto, pieces } = await projectDto(project, caller);
      return { project: dto, contents: pieces };
    },

    /**
     * Projects by the reactions of their publicly listed pieces, as a visitor sees them (a count its owner hides is
     * not added). Scans the listed pieces that are in a project; only the top projects' pieces are mapped.
     */
    async ranking(): Promise<Schemas['ProjectList']> {
      const pieces = await contentReads.many<ContentDoc>(ours({ listed: true, projectId: { $ne: null } }));
      const byProject = new Map<string, { reacted: number; pieces: ContentDoc[] }>();
      for (const piece of pieces) {
        const key = String(piece.projectId);
        const entry = byProject.get(key) ?? { reacted: 0, pieces: [] };
        entry.reacted += shownCount(piece, null, piece.reactedCount) ?? 0;
        entry.pieces.push(piece);
        byProject.set(key, entry);
      }
      const projects = await ProjectModel.find({ _id: anyOf([...byProject.keys()].map((id) => new Types.ObjectId(id))) }).lean<ProjectDoc[]>();
      const ranked = projects
        .map((project) => ({ project, ...byProject.get(String(project._id))! }))
        .map((entry) => ({ ...entry, pieces: entry.pieces.filter((piece) => piece.ownerId.equals(entry.project.userId)) }))
        .filter((entry) => entry.pieces.length > 0)
        .sort((a, b) => b.reacted - a.reacted || b.project.createdAt.getTime() - a.project.createdAt.getTime())
        .slice(0, RANKING_SIZE);
      const out: Schemas['Project'][] = [];
      for (const { project, pieces: own } of ranked) {
        own.sort((a, b) => String(a._id).localeCompare(String(b._id)));
        out.push(toProjectDto(project, { contents: await shown(own, undefined), ...(await ownerNames(project.userId)) }));
      }
      return { projects: out };
    },
  };
}

export type ProjectsService = ReturnType<typeof createProjectsService>;
