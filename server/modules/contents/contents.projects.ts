/**
 * The piece's side of projects: a piece's `projectId` says which project it is in. The projects module decides who
 * may put which piece where and asks here; this module stays the only writer of pieces.
 *
 * Which pieces a project holds is also kept as a short list per project (`project_pieces`, a versioned list:
 * lib/versioned-list.ts), so that a project's pieces are read by `_id` (the list, then each piece) rather than by a
 * scan of the pieces. The piece's `projectId` stays the truth: a reader keeps only the listed pieces that still point
 * at the project. The list may hold more (a piece moved away by two changes at once, or by a process that stopped),
 * never fewer, in any interleaving of processes that do not stop:
 * - a piece is set first, then the project it joins gets a new version of its list (written even when the piece is
 *   listed already);
 * - the project it left drops it by a change that reads the piece after the list version it builds on, and only when
 *   the piece points elsewhere. A move back at once writes a version of its own after setting the piece, so one of
 *   the two changes is made again on the other's list, and the piece stays listed.
 * A project holds at most MAX_PIECES_PER_PROJECT pieces, so that reading one stays bounded.
 */
import { Schema, Types, model } from 'mongoose';
import { MESSAGES } from '../../../generated/validation';
import { AppError } from '../../lib/errors';
import { comparedState, type KeptStateReport } from '../../lib/kept-state';
import { publicPages } from '../../lib/public-pages';
import { readById, updateById } from '../../lib/query';
import { versionedLists } from '../../lib/versioned-list';
import { ContentModel, type ContentDoc } from './contents.model';

/** Whether `projectId` is a project of `ownerId` (the projects module answers; it is handed to the contents routes). */
export type ProjectOwnerCheck = (projectId: string, ownerId: string) => Promise<boolean>;

/** How many pieces one project may hold: its page and the member's project list read each of them (the contract's message says it). */
export const MAX_PIECES_PER_PROJECT = 200;

const projectPiecesSchema = new Schema(
  { _id: { type: String, required: true }, ids: { type: [String], default: [] }, n: Number, at: Date },
  { versionKey: false },
);
const ProjectPiecesModel = model('ProjectPieces', projectPiecesSchema, 'project_pieces');
const projectLists = versionedLists(ProjectPiecesModel);

type Placed = Pick<ContentDoc, '_id' | 'projectId'>;
const projectOf = async (contentId: string) => {
  const piece = await readById<Placed>(ContentModel, new Types.ObjectId(contentId), { projectId: 1 });
  return piece?.projectId ? String(piece.projectId) : null;
};

/** The listed ids whose pieces still point at the project (each read by `_id`). */
async function stillIn(projectId: string, ids: string[]): Promise<string[]> {
  const places = await Promise.all(ids.map(projectOf));
  return ids.filter((_, i) => places[i] === projectId);
}

/**
 * Checks that the project has room for `adding` pieces: a list that would pass the limit is first cleared of pieces
 * that left it; if it is still too full, 409 before anything moves. Two adds at once may both pass on the same list: the limit is then passed by what was
 * added at that moment, not more.
 */
async function requireRoom(projectId: string, adding: string[]): Promise<void> {
  const { ids } = await projectLists.current(projectId);
  const fresh = adding.filter((id) => !ids.includes(id));
  if (ids.length + fresh.length <= MAX_PIECES_PER_PROJECT) return;
  const kept = await projectLists.change(projectId, async (now) => {
    const staying = await stillIn(projectId, now);
    return staying.length === now.length ? null : staying;
  });
  if (kept.ids.length + adding.filter((id) => !kept.ids.includes(id)).length > MAX_PIECES_PER_PROJECT)
    throw new AppError(409, 'conflict', MESSAGES.projectFull);
}

/** Drops the piece from the list of the project it was in, unless it points at that project again. */
async function dropFrom(projectId: string, contentId: string): Promise<void> {
  await projectLists.change(projectId, async (ids) => {
    if (!ids.includes(contentId)) return null;
    return (await projectOf(contentId)) === projectId ? null : ids.filter((id) => id !== contentId);
  });
}

/**
 * Puts the pieces in the project (in this order, after those it holds), or takes them out of their projects (null).
 * 409 when the project would hold more than MAX_PIECES_PER_PROJECT pieces, before anything moves.
 */
export async function setPiecesProject(contentIds: (Types.ObjectId | string)[], projectId: Types.ObjectId | string | null): Promise<void> {
  const ids = [...new Set(contentIds.map(String))];
  const target = projectId ? String(projectId) : null;
  if (target) await requireRoom(target, ids);
  const left = await Promise.all(ids.map(projectOf));
  for (const id of ids) await updateById(ContentModel, new Types.ObjectId(id), { $set: { projectId: target ? new Types.ObjectId(target) : null } });
  if (target) await projectLists.change(target, (now) => [...now, ...ids.filter((id) => !now.includes(id))]);
  const moved = ids.flatMap((id, i) => (left[i] && left[i] !== target ? [{ id, from: left[i] }] : []));
  await Promise.all(moved.map(({ id, from }) => dropFrom(from, id)));
  publicPages.clear();
}

/** Puts the piece in the project, or takes it out of its project (null). */
export const setPieceProject = (contentId: Types.ObjectId | string, projectId: Types.ObjectId | string | null) => setPiecesProject([contentId], projectId);

/** Takes every piece out of the project (when it is removed); the pieces stay published. Answers how many left it. */
export async function clearProject(projectId: Types.ObjectId): Promise<number> {
  const key = String(projectId);
  const { ids } = await projectLists.current(key);
  const inIt = await stillIn(key, ids);
  for (const id of inIt) await updateById(ContentModel, new Types.ObjectId(id), { $set: { projectId: null } });
  if (inIt.length) await projectLists.change(key, () => []);
  publicPages.clear();
  return inIt.length;
}

/**
 * The pieces in the project that are `ownerId`'s, in the order they were added: its list, then each piece by `_id`
 * (those that left it are skipped). At most MAX_PIECES_PER_PROJECT reads, whatever the catalogue.
 */
export async function piecesOfProject(projectId: Types.ObjectId | string, ownerId: Types.ObjectId | string): Promise<ContentDoc[]> {
  const key = String(projectId);
  const { ids } = await projectLists.current(key);
  const pieces = await Promise.all(ids.map((id) => readById<ContentDoc>(ContentModel, new Types.ObjectId(id))));
  return pieces.filter((piece): piece is ContentDoc => Boolean(piece && String(piece.projectId) === key && String(piece.ownerId) === String(ownerId)));
}

/** What the pieces say: each project's pieces (streamed). */
async function expectedLists(): Promise<Map<string, string[]>> {
  const expected = new Map<string, string[]>();
  const cursor = ContentModel.collection.find({ projectId: { $ne: null } }, { projection: { projectId: 1 }, sort: { _id: 1 }, batchSize: 1_000 });
  for await (const piece of cursor) {
    const key = String(piece.projectId);
    expected.set(key, [...(expected.get(key) ?? []), String(piece._id)]);
  }
  return expected;
}

/**
 * Compares every project's list with its pieces (both read whole): a piece that points at a project whose list lacks
 * it is a difference (its project would not show it); a listed piece that has left is not, as readers skip it
 * (lib/versioned-list.ts `compare`). The rebuild makes every list exact.
 */
async function compareLists(write: boolean): Promise<KeptStateReport> {
  const expected = await expectedLists();
  return projectLists.compare(expected, write, (project, missing) => `project ${project}: pieces ${missing.join(', ')} point at it but are not in its list`);
}

/** Each project's list of pieces as a kept state (`npm run rebuild -- project-pieces`). */
export const projectPiecesState = comparedState(
  'project-pieces',
  "Each project's list of its pieces (project_pieces, versioned lists), rebuilt from the pieces' projectId.",
  compareLists,
);

/** Forgets the list ends this process knows, for tests that empty the collections under a running app. */
export const forgetProjectPieces = () => projectLists.forget();
