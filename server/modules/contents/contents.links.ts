/**
 * Piece links: one key document (lib/key-documents.ts) per piece in `content_links`, whose `_id` is
 * `{ownerId}/{slug}`, holding the piece's id. A share link `/{username}-{slug}` is found in a bounded number of reads
 * by `_id` (the username's member by their key, then this key, then the piece) however many pieces there are, where
 * a filter on `ownerUsername` and `slug` would read them all.
 *
 * Keyed by the owner's id rather than their username, so that a rename changes no key: the username in a link is
 * resolved to its member first (a former name included), which is also how links with a former name keep working.
 * A slug is claimed by insert when a piece is published or changes hands, so of two pieces with one title published
 * at once, in any processes, one has `sunset` and the other `sunset-2`. The `piece-links` kept state compares the
 * keys with the pieces and rebuilds them in bulk; a database written before the keys existed gets them from that
 * rebuild at start, and until then a read that finds no key falls back to the pieces' fields.
 */
import { Schema, model, type Types } from 'mongoose';
import { keyDocuments } from '../../lib/key-documents';
import type { KeptState } from '../../lib/kept-state';
import { readById } from '../../lib/query';
import { slugOf } from '../../lib/search';
import { resolveUsername } from '../users';
import { ContentModel, type ContentDoc } from './contents.model';

const contentLinkSchema = new Schema(
  {
    _id: { type: String, required: true },
    /** The piece at the link. */
    ref: { type: Schema.Types.ObjectId, ref: 'Content', required: true },
    state: { type: String, enum: ['claimed', 'held'], required: true },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);
export const ContentLinkModel = model('ContentLink', contentLinkSchema, 'content_links');

/** A link's key: the owner's id (lower-case hex, as ids are stored) and the slug as kept (lower case). */
const linkId = (ownerId: Types.ObjectId | string, slug: string) => `${String(ownerId)}/${slug.toLowerCase()}`;

type Linked = Pick<ContentDoc, 'ownerId' | 'slug'>;
const isAt = (piece: Linked, id: string) => linkId(piece.ownerId, piece.slug) === id;

const pieceLinks = keyDocuments({
  model: ContentLinkModel,
  async holds(id, ref) {
    const piece = await readById<Linked>(ContentModel, ref, { ownerId: 1, slug: 1 });
    return Boolean(piece && isAt(piece, id));
  },
});

/** The piece of `ownerId` whose slug is `slug`, or null. */
export function pieceOfOwnerAt(ownerId: Types.ObjectId | string, slug: string): Promise<ContentDoc | null> {
  const id = linkId(ownerId, slug);
  return pieceLinks.lookUp(
    id,
    (ref) => readById<ContentDoc>(ContentModel, ref),
    (piece) => isAt(piece, id),
    () => ContentModel.findOne({ ownerId, slug: slug.toLowerCase() }).lean<ContentDoc>(),
  );
}

/**
 * The piece a share link `/{username}-{slug}` names now: the member the username names (their name now, or one they
 * gave up), then their piece by the slug. Null when there is none (the caller may then try the links pieces had
 * before a sale).
 */
export async function pieceAtLink(username: string, slug: string): Promise<ContentDoc | null> {
  const owner = await resolveUsername(username.toLowerCase());
  return owner ? pieceOfOwnerAt(owner._id, slug) : null;
}

/**
 * Claims a slug for a new piece of `ownerId` made from `title`: `sunset`, else `sunset-2`, `sunset-3`… (its own key
 * is answered as claimed, so publishing it again under its id finds the same slug). Confirm it once the piece is
 * written (`confirmPieceLink`), or give it back (`releasePieceLink`).
 */
export async function claimFreeSlug(ownerId: Types.ObjectId | string, title: string, contentId: Types.ObjectId): Promise<string> {
  const base = slugOf(title) || String(contentId);
  for (let n = 1; n < 50; n += 1) {
    const slug = n === 1 ? base : `${base}-${n}`;
    if (await pieceLinks.claim(linkId(ownerId, slug), contentId)) return slug;
  }
  return claimSlugOrOwn(ownerId, base, contentId);
}

/**
 * Claims `slug` for the piece under `ownerId`, else the slug with the piece's id added (which no other piece can
 * want): answers the slug claimed.
 */
export async function claimSlugOrOwn(ownerId: Types.ObjectId | string, slug: string, contentId: Types.ObjectId): Promise<string> {
  if (await pieceLinks.claim(linkId(ownerId, slug), contentId)) return slug;
  const short = `${slug}-${String(contentId).slice(-6)}`;
  if (await pieceLinks.claim(linkId(ownerId, short), contentId)) return short;
  const own = `${slug}-${String(contentId)}`;
  await pieceLinks.claim(linkId(ownerId, own), contentId);
  return own;
}

/** Marks the piece's claimed link held: the piece is at it now. */
export const confirmPieceLink = (ownerId: Types.ObjectId | string, slug: string, contentId: Types.ObjectId) =>
  pieceLinks.confirm(linkId(ownerId, slug), contentId);

/** Removes the piece's key of a link it left (removed, sold) or never took (its write failed); another piece's key stays. */
export const releasePieceLink = (ownerId: Types.ObjectId | string, slug: string, contentId: Types.ObjectId) =>
  pieceLinks.release(linkId(ownerId, slug), contentId);

/** Every key the pieces call for, by id, with the piece's id (streamed in batches). */
async function expectedLinks(): Promise<Map<string, string>> {
  const expected = new Map<string, string>();
  for await (const piece of ContentModel.collection.find({}, { projection: { ownerId: 1, slug: 1 }, batchSize: 1_000 })) {
    if (piece.ownerId && typeof piece.slug === 'string' && piece.slug) expected.set(linkId(piece.ownerId as Types.ObjectId, piece.slug), String(piece._id));
  }
  return expected;
}

/** The piece links as a kept state (`npm run rebuild -- piece-links`). */
export const pieceLinksState: KeptState = {
  name: 'piece-links',
  describe: "Each piece's share link (owner and slug) as a key document (content_links), rebuilt from the pieces.",
  check: async () => pieceLinks.compare(await expectedLinks(), false),
  rebuild: async () => pieceLinks.compare(await expectedLinks(), true),
};

/** Runs the rebuild once on a database whose links are not complete (see ensureMemberKeys); answers whether it ran. */
export async function ensurePieceLinks(): Promise<boolean> {
  if (await pieceLinks.complete()) return false;
  await pieceLinksState.rebuild();
  return true;
}
