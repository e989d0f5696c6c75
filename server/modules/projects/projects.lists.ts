/**
 * Each member's projects as a short list (`project_lists`, a versioned list: lib/versioned-list.ts) keyed by the
 * member, oldest first, so that a member's projects are read by `_id` (the list, then each project) rather than by a
 * scan of the projects. A project is written first and then listed; it leaves the list once it is removed. A
 * process that stops in between leaves a project unlisted (the check reports it, the rebuild lists it) or a removed
 * one listed (readers skip it). A member has at most MAX_PROJECTS_PER_MEMBER projects, so reading them stays bounded.
 */
import { Schema, Types, model } from 'mongoose';
import { MESSAGES } from '../../../generated/validation';
import { AppError } from '../../lib/errors';
import { comparedState, type KeptStateReport } from '../../lib/kept-state';
import { readById } from '../../lib/query';
import { versionedLists } from '../../lib/versioned-list';
import { ProjectModel, type ProjectDoc } from './projects.model';

/** How many projects a member may have: the side menu lists them all on every signed-in page (the contract's message says it). */
export const MAX_PROJECTS_PER_MEMBER = 100;

const projectListSchema = new Schema(
  { _id: { type: String, required: true }, ids: { type: [String], default: [] }, n: Number, at: Date },
  { versionKey: false },
);
const ProjectListModel = model('ProjectList', projectListSchema, 'project_lists');
const memberLists = versionedLists(ProjectListModel);

const projectById = (id: string) => readById<ProjectDoc>(ProjectModel, new Types.ObjectId(id));

/**
 * Lists the member's new project (written just before). A list that would pass the limit is first cleared of
 * projects removed meanwhile; if it is still full, the project is removed again and 409 answered.
 */
export async function listProject(userId: Types.ObjectId, projectId: Types.ObjectId): Promise<void> {
  const id = String(projectId);
  let full = false;
  await memberLists.change(String(userId), async (ids) => {
    full = false;
    if (ids.includes(id)) return null;
    if (ids.length < MAX_PROJECTS_PER_MEMBER) return [...ids, id];
    const found = await Promise.all(ids.map(projectById));
    const existing = ids.filter((_, i) => found[i]);
    full = existing.length >= MAX_PROJECTS_PER_MEMBER;
    return full ? null : [...existing, id];
  });
  if (full) {
    await ProjectModel.deleteOne({ _id: projectId });
    throw new AppError(409, 'conflict', MESSAGES.tooManyProjects);
  }
}

/** Takes a removed project out of its member's list. */
export async function unlistProject(userId: Types.ObjectId, projectId: Types.ObjectId): Promise<void> {
  const id = String(projectId);
  await memberLists.change(String(userId), (ids) => (ids.includes(id) ? ids.filter((listed) => listed !== id) : null));
}

/** The member's projects, the newest first: their list, then each project by `_id` (removed ones skipped). */
export async function projectsOfMember(userId: Types.ObjectId): Promise<ProjectDoc[]> {
  const { ids } = await memberLists.current(String(userId));
  const found = await Promise.all([...ids].reverse().map(projectById));
  return found.filter((project): project is ProjectDoc => Boolean(project && project.userId.equals(userId)));
}

/**
 * Compares every member's list with their projects (both read whole): a project its member's list lacks is a
 * difference (lib/versioned-list.ts `compare`); the rebuild makes every list exact, the oldest project first.
 */
async function compareLists(write: boolean): Promise<KeptStateReport> {
  const expected = new Map<string, string[]>();
  const cursor = ProjectModel.collection.find({}, { projection: { userId: 1 }, sort: { createdAt: 1, _id: 1 }, batchSize: 1_000 });
  for await (const project of cursor) expected.set(String(project.userId), [...(expected.get(String(project.userId)) ?? []), String(project._id)]);
  return memberLists.compare(expected, write, (member, missing) => `member ${member}: projects ${missing.join(', ')} are not in their list`);
}

/** The members' project lists as a kept state (`npm run rebuild -- project-lists`). */
export const projectListsState = comparedState(
  'project-lists',
  "Each member's list of their projects (project_lists, versioned lists), rebuilt from the projects.",
  compareLists,
);

/** Forgets the list ends this process knows, for tests that empty the collections under a running app. */
export const forgetProjectLists = () => memberLists.forget();
