/** A member's projects in "Download my data" and "Delete my account" (their pieces are the contents module's part). */
import { Types } from 'mongoose';
import type { Schemas } from '../../lib/openapi-types';
import { ours } from '../../lib/query';
import { clearProject, contentReads, type ContentDoc } from '../contents';
import { unlistProject } from './projects.lists';
import { ProjectModel, type ProjectDoc } from './projects.model';

/** The member's projects, the oldest first, each with the ids of the member's pieces in it. */
export async function projectsExportOf(userId: string): Promise<Schemas['DataExportProject'][]> {
  const ownerId = new Types.ObjectId(userId);
  const projects = await ProjectModel.find({ userId: ownerId }).sort({ createdAt: 1, _id: 1 }).lean<ProjectDoc[]>();
  const pieces = await contentReads.many<Pick<ContentDoc, '_id' | 'projectId'>>(ours({ ownerId, projectId: { $ne: null } }), {
    projection: { projectId: 1 },
    sort: { _id: 1 },
  });
  return projects.map((project) => ({
    id: String(project._id),
    projectName: project.projectName,
    contentIds: pieces.filter((piece) => piece.projectId?.equals(project._id)).map((piece) => String(piece._id)),
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
