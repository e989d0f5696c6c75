/** A member's projects in "Download my data" and "Delete my account" (their pieces are the contents module's part). */
import { Types } from 'mongoose';
import type { Schemas } from '../../lib/openapi-types';
import { clearProject, piecesOfProject } from '../contents';
import { projectsOfMember, unlistProject } from './projects.lists';
import { ProjectModel, type ProjectDoc } from './projects.model';

/**
 * The member's projects, the oldest first, each with the ids of the member's pieces in it (the oldest first). Read
 * by `_id` through the lists the project pages use: the member's list of projects (projects.lists.ts), then each
 * project's list of pieces (kept by the contents module), each entry checked against its document, so that a removed
 * project, a piece moved to another project and a piece sold to another member are left out. (A filter on the member
 * would read every project and every piece there is on FerretDB, the test and dev database.) A project or a piece
 * whose process stopped before it was listed is missing, as on the project pages, until
 * `npm run rebuild -- project-lists project-pieces`.
 */
export async function projectsExportOf(userId: string): Promise<Schemas['DataExportProject'][]> {
  const ownerId = new Types.ObjectId(userId);
  // The list is in the order the projects were listed; the export has always been by creation time.
  const projects = (await projectsOfMember(ownerId)).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (String(a._id) < String(b._id) ? -1 : 1));
  const piecesOf = await Promise.all(projects.map((project) => piecesOfProject(project._id, ownerId)));
  return projects.map((project, i) => ({
    id: String(project._id),
    projectName: project.projectName,
    // In the order they joined the project on its list; by id here, as the export has always been.
    contentIds: [...new Set(piecesOf[i]!.map((piece) => String(piece._id)))].sort(),
    createdAt: project.createdAt.toISOString(),
  }));
}

/** Removes every project of the member, their pieces left out of them; safe to repeat. Answers how many it removed. */
export async function removeProjectsOf(userId: string): Promise<number> {
  const projects = await ProjectModel.find({ userId: new Types.ObjectId(userId) }, { _id: 1 }).lean<Pick<ProjectDoc, '_id'>[]>();
  for (const project of projects) {
    await ProjectModel.deleteOne({ _id: project._id });
    await unlistProject(new Types.ObjectId(userId), project._id);
    await clearProject(project._id);
  }
  return projects.length;
}
