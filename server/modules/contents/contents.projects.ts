/**
 * The piece's side of projects: a piece's `projectId` says which project it is in. The projects module decides who
 * may put which piece where and asks here; this module stays the only writer of pieces.
 */
import { Types } from 'mongoose';
import { publicPages } from '../../lib/public-pages';
import { ContentModel } from './contents.model';

/** Whether `projectId` is a project of `ownerId` (the projects module answers; it is handed to the contents routes). */
export type ProjectOwnerCheck = (projectId: string, ownerId: string) => Promise<boolean>;

/** Puts the piece in the project, or takes it out of its project (null). */
export async function setPieceProject(contentId: Types.ObjectId | string, projectId: Types.ObjectId | string | null): Promise<void> {
  await ContentModel.updateOne({ _id: contentId }, { $set: { projectId: projectId ? new Types.ObjectId(String(projectId)) : null } });
  publicPages.clear();
}

/** Takes every piece out of the project (when it is removed); the pieces stay published. Scans the pieces. */
export async function clearProject(projectId: Types.ObjectId): Promise<number> {
  const { modifiedCount } = await ContentModel.updateMany({ projectId }, { $set: { projectId: null } });
  publicPages.clear();
  return modifiedCount;
}
