/**
 * Posting a piece to Instagram: a member connects their Instagram professional account once (Instagram's consent
 * page, then back to Knack with a one-time code), then posts any public piece's picture with its link as the caption.
 * Knack keeps the account's long-lived token encrypted, renews it when it nears its end, and forgets it when the
 * member disconnects, when Instagram says it ended, or when the account is deleted.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Types } from 'mongoose';
import type { InstagramConfig } from '../../config';
import { InstagramError, instagramGraph, type InstagramGraph } from '../../integrations/instagram';
import type { Storage } from '../../integrations/storage';
import type { AuthContext } from '../../lib/auth-context';
import { isDuplicateKey, retryLostUpsert } from '../../lib/duplicate-key';
import { AppError, notFound } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import type { Schemas } from '../../lib/openapi-types';
import { insertWhole, readById } from '../../lib/query';
import { consumeLimit } from '../../lib/rate-limit';
import { readSignedToken, signedToken } from '../../lib/signed-token';
import { canSee, canView, contentLink, contentReads, type ContentDoc } from '../contents';
import { instagramJpeg } from './instagram.image';
import { InstagramLinkModel, InstagramPostModel, type InstagramLinkDoc, type InstagramPostDoc } from './instagram.model';

export const INSTAGRAM_MESSAGES = {
  shared: 'The content was shared to Instragram Successfully.',
  disconnected: 'Instagram is disconnected.',
  notConfigured: 'Posting to Instagram is not offered on this server: its operator has not set INSTAGRAM_APP_ID and INSTAGRAM_APP_SECRET.',
  notConnected: 'Connect your Instagram professional account first.',
  ended: 'Your Instagram connection has ended: connect your account again.',
  notPublic: 'Only a public piece can be posted to Instagram: it fetches the picture as anyone would.',
  posting: 'This piece is being posted to your Instagram already.',
  postedLately: 'This piece was posted to your Instagram a moment ago.',
  tooMany: 'You have posted to Instagram many times today. Please try again tomorrow.',
  tooManyConnects: 'You have tried to connect Instagram many times. Please try again later.',
  notFound: 'Content not found',
  refused: 'Instagram refused the post',
  unreachable: 'Instagram cannot be reached right now. Please try again in a moment.',
} as const;

/** Posts a member may make in a day: Instagram allows an account 100 posts made through its API in 24 hours. */
export const POST_LIMIT = { max: 25, windowMs: 86_400_000 };
/** Connection attempts a member may start in an hour. */
export const CONNECT_LIMIT = { max: 10, windowMs: 3_600_000 };
/** How long the consent page may take, and how long Instagram may take to fetch the picture of a post. */
const STATE_TTL_MS = 15 * 60_000;
const IMAGE_LINK_TTL_MS = 15 * 60_000;
/** A post left "posting" this long was cut off (the process stopped): another may start. */
const POSTING_STALE_MS = 2 * 60_000;
/** The same piece is not posted again this soon after: a second tap is a mistake far more often than a wish. */
const POSTED_QUIET_MS = 10 * 60_000;
/** A token is renewed when it has fewer days than this left (Instagram's last 60 days; renewable once a day old). */
const RENEW_BEFORE_MS = 10 * 86_400_000;
/** How often, and how many times, a container is asked whether Instagram has fetched the picture. */
const CONTAINER_POLL = { everyMs: 1000, times: 20 };
/** The cookie that ties a consent to the browser that asked for it (see `connect`). */
export const CONNECT_COOKIE = 'knack_instagram_connect';
/** Where Instagram sends the browser back: a page of the site, outside the API (the redirect URI the app registers). */
export const CALLBACK_PATH = '/instagram/callback';
/** Where the one-time picture links are served (outside the API: Instagram fetches them as a plain image). */
export const IMAGE_PATH = '/instagram-images';

interface InstagramDeps {
  config: InstagramConfig | undefined;
  storage: Storage;
  publicUrl: string;
  logger: Logger;
  /** Tests point it at a stand-in's clock; the pause between two looks at a container. */
  pollEveryMs?: number;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');
const postId = (userId: string, contentId: string) => `${userId}:${contentId}`;

/** A path of this site to come back to: one slash, no scheme or host, at most 300 characters. */
export const safeReturnPath = (path: string | undefined) => (path && /^\/(?!\/)[^\s\\]{0,299}$/.test(path) ? path : '/');

export function createInstagramService({ config, storage, publicUrl, logger, pollEveryMs = CONTAINER_POLL.everyMs }: InstagramDeps) {
  const log = logger.child({ module: 'instagram' });
  const graph: InstagramGraph | null = config ? instagramGraph(config) : null;
  const redirectUri = `${publicUrl}${CALLBACK_PATH}`;

  const configured = () => {
    if (!config || !graph) throw new AppError(404, 'not_configured', INSTAGRAM_MESSAGES.notConfigured);
    return { config, graph };
  };

  function encrypt(key: string, token: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', Buffer.from(key, 'base64url'), iv);
    const sealed = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url')).join('.');
  }

  function decrypt(key: string, stored: string): string {
    const [iv, tag, sealed] = stored.split('.').map((part) => Buffer.from(part, 'base64url'));
    const decipher = createDecipheriv('aes-256-gcm', Buffer.from(key, 'base64url'), iv!);
    decipher.setAuthTag(tag!);
    return Buffer.concat([decipher.update(sealed!), decipher.final()]).toString('utf8');
  }

  const readLink = (userId: string) => readById<InstagramLinkDoc>(InstagramLinkModel, userId);
  const forget = (userId: string) => InstagramLinkModel.deleteOne({ _id: userId });

  /** The link's token, renewed first when it nears its end (a renewal that fails leaves the one that still works). */
  async function tokenOf(link: InstagramLinkDoc, now: Date): Promise<string> {
    const { config, graph } = configured();
    const token = decrypt(config.tokensKey, link.tokenCipher);
    if (link.expiresAt.getTime() - now.getTime() > RENEW_BEFORE_MS) return token;
    try {
      const renewed = await graph.refresh(token);
      await InstagramLinkModel.updateOne(
        { _id: link._id },
        { $set: { tokenCipher: encrypt(config.tokensKey, renewed.accessToken), expiresAt: renewed.expiresAt } },
      );
      return renewed.accessToken;
    } catch (err) {
      log.warn({ err, userId: link._id }, 'Instagram token not renewed');
      return token;
    }
  }

  /** An Instagram failure in the member's words; an ended token also ends the connection. */
  async function answerFailure(err: unknown, userId: string): Promise<never> {
    if (!(err instanceof InstagramError)) throw err;
    if (err.tokenEnded) {
      await forget(userId);
      throw new AppError(409, 'conflict', INSTAGRAM_MESSAGES.ended);
    }
    if (err.code === null && /could not be reached/.test(err.message)) {
      log.warn({ err }, 'Instagram cannot be reached');
      throw new AppError(503, 'unavailable', INSTAGRAM_MESSAGES.unreachable);
    }
    log.warn({ err, code: err.code, subcode: err.subcode }, 'Instagram refused a call');
    throw new AppError(502, 'bad_gateway', `${INSTAGRAM_MESSAGES.refused}: ${err.message}`);
  }

  /** Waits until Instagram has fetched and checked the picture (a few seconds at most for an image). */
  async function whenReady(graph: InstagramGraph, containerId: string, token: string): Promise<void> {
    for (let look = 0; look < CONTAINER_POLL.times; look += 1) {
      const { status, detail } = await graph.containerStatus(containerId, token);
      if (status === 'FINISHED') return;
      if (status === 'ERROR' || status === 'EXPIRED') throw new InstagramError(detail || `the picture could not be used (${status})`, null, null);
      await sleep(pollEveryMs);
    }
    throw new InstagramError('the picture was still being processed after 20 seconds', null, null);
  }

  /** Takes the piece's post slot for this member, or says why not. */
  async function claimPost(userId: string, contentId: string, now: Date): Promise<void> {
    const _id = postId(userId, contentId);
    const doc: InstagramPostDoc = { _id, userId, contentId, status: 'posting', at: now, mediaId: null, permalink: null };
    const take = () => insertWhole(InstagramPostModel, doc);
    try {
      return await take();
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    const held = await readById<InstagramPostDoc>(InstagramPostModel, _id);
    const age = held ? now.getTime() - held.at.getTime() : Infinity;
    if (held?.status === 'posting' && age < POSTING_STALE_MS) throw new AppError(409, 'conflict', INSTAGRAM_MESSAGES.posting);
    if (held?.status === 'posted' && age < POSTED_QUIET_MS) throw new AppError(409, 'conflict', INSTAGRAM_MESSAGES.postedLately);
    // An old slot is removed (only if unchanged since read), then taken by insert: of two callers, one insert wins.
    if (held) await InstagramPostModel.deleteOne({ _id, at: held.at });
    try {
      await take();
    } catch (err) {
      if (isDuplicateKey(err)) throw new AppError(409, 'conflict', INSTAGRAM_MESSAGES.posting);
      throw err;
    }
  }

  return {
    async connection(caller: AuthContext): Promise<Schemas['InstagramConnection']> {
      if (!config) return { configured: false, connected: false, username: null, expiresAt: null, message: INSTAGRAM_MESSAGES.notConfigured };
      const link = await readLink(caller.userId);
      return {
        configured: true,
        connected: Boolean(link),
        username: link?.username ?? null,
        expiresAt: link ? link.expiresAt.toISOString() : null,
        message: null,
      };
    },

    /**
     * Starts a connection: the consent page's address. Its `state` names the member, the page to come back to and
     * a nonce, and is signed; the nonce's other half is a cookie set on this browser only. The callback accepts a
     * consent only with both, so a consent begun by someone else (who would then post to this member's account, or
     * this member to theirs) is refused.
     */
    async connect(caller: AuthContext, returnTo: string | undefined, now = new Date()): Promise<{ authorizeUrl: string; nonce: string }> {
      const { config, graph } = configured();
      await consumeLimit(`instagram-connect:${caller.userId}`, CONNECT_LIMIT, INSTAGRAM_MESSAGES.tooManyConnects, now);
      const nonce = randomBytes(18).toString('base64url');
      const back = Buffer.from(safeReturnPath(returnTo)).toString('base64url');
      const state = signedToken(config.linksKey, 'instagram-connect', [caller.userId, String(now.getTime() + STATE_TTL_MS), back, sha256(nonce)]);
      return { authorizeUrl: graph.authorizeUrl(redirectUri, state), nonce };
    },

    /**
     * Instagram's return: the code exchanged for a long-lived token, kept for the member the state names. Answers
     * where to send the browser: the page the member left, told how it went (`instagram=connected`, or
     * `instagram=failed` with the reason).
     */
    async callback(query: { code?: string; state?: string; error?: string; error_description?: string }, nonce: string | undefined, now = new Date()) {
      const { config, graph } = configured();
      const values = query.state ? readSignedToken(config.linksKey, 'instagram-connect', query.state, 4) : null;
      const back = values ? safeReturnPath(Buffer.from(values[2]!, 'base64url').toString('utf8')) : '/';
      const to = (outcome: Record<string, string>) => {
        const url = new URL(back, publicUrl);
        for (const [name, value] of Object.entries(outcome)) url.searchParams.set(name, value);
        return `${url.pathname}${url.search}`;
      };
      // A refusal connects nothing, so it is told whatever the state (Instagram may send it back without one).
      if (query.error) return to({ instagram: 'failed', reason: query.error_description || 'Instagram was not connected.' });
      if (!values || Number(values[1]) < now.getTime() || !nonce || sha256(nonce) !== values[3] || !query.code) {
        return to({ instagram: 'failed', reason: 'The connection was not started from this browser, or took too long. Please try again.' });
      }
      const userId = values[0]!;
      try {
        const token = await graph.exchangeCode(query.code, redirectUri);
        const me = await graph.me(token.accessToken);
        const link: InstagramLinkDoc = {
          _id: userId,
          instagramUserId: me.userId,
          username: me.username,
          tokenCipher: encrypt(config.tokensKey, token.accessToken),
          expiresAt: token.expiresAt,
          connectedAt: now,
        };
        // Two connections of one member at once (a callback opened twice): the later link replaces the other's.
        await retryLostUpsert(() => InstagramLinkModel.replaceOne({ _id: userId }, link, { upsert: true }));
        log.info({ userId, instagramUserId: me.userId }, 'Instagram connected');
        return to({ instagram: 'connected' });
      } catch (err) {
        if (!(err instanceof InstagramError)) throw err;
        log.warn({ err, code: err.code }, 'Instagram connection refused');
        return to({ instagram: 'failed', reason: `Instagram refused the connection: ${err.message}` });
      }
    },

    async disconnect(caller: AuthContext): Promise<void> {
      await forget(caller.userId);
    },

    /** Posts a public piece's picture to the member's account, with its title, artist and link as the caption. */
    async post(caller: AuthContext, contentId: string, now = new Date()): Promise<Schemas['InstagramPost']> {
      const { config, graph } = configured();
      const content = Types.ObjectId.isValid(contentId) ? await contentReads.byId<ContentDoc>(contentId) : null;
      if (!content || !(await canView(content, caller))) throw notFound(INSTAGRAM_MESSAGES.notFound);
      if (!canSee(content, undefined)) throw new AppError(409, 'conflict', INSTAGRAM_MESSAGES.notPublic);
      const link = await readLink(caller.userId);
      if (!link) throw new AppError(409, 'conflict', INSTAGRAM_MESSAGES.notConnected);
      await consumeLimit(`instagram-post:${caller.userId}`, POST_LIMIT, INSTAGRAM_MESSAGES.tooMany, now);
      await claimPost(caller.userId, contentId, now);
      const slot = postId(caller.userId, contentId);
      try {
        const token = await tokenOf(link, now);
        const imageToken = signedToken(config.linksKey, 'instagram-image', [contentId, String(now.getTime() + IMAGE_LINK_TTL_MS)]);
        const pageUrl = `${publicUrl}${contentLink(content)}`;
        const artist = content.ownerName || content.ownerUsername;
        const caption = `${content.title} by ${artist} on Knack\n${pageUrl}`;
        const containerId = await graph.createImageContainer(link.instagramUserId, token, `${publicUrl}${IMAGE_PATH}/${imageToken}.jpg`, caption);
        await whenReady(graph, containerId, token);
        const { mediaId, permalink } = await graph.publish(link.instagramUserId, token, containerId);
        await InstagramPostModel.updateOne({ _id: slot }, { $set: { status: 'posted', mediaId, permalink, at: new Date() } });
        log.info({ userId: caller.userId, contentId, mediaId }, 'posted to Instagram');
        return { message: INSTAGRAM_MESSAGES.shared, mediaId, permalink, username: link.username };
      } catch (err) {
        await InstagramPostModel.deleteOne({ _id: slot });
        return answerFailure(err, caller.userId);
      }
    },

    /**
     * The JPEG behind a one-time picture link, while the link lasts and the piece is still public; null otherwise.
     * Only Knack makes these links, when a member posts, so the conversion is never run for a stranger's asking.
     */
    async imageOf(token: string, now = new Date()): Promise<Buffer | null> {
      if (!config) return null;
      const values = readSignedToken(config.linksKey, 'instagram-image', token, 2, (value) => value);
      if (!values || Number(values[1]) < now.getTime() || !Types.ObjectId.isValid(values[0]!)) return null;
      const content = await contentReads.byId<ContentDoc>(values[0]!);
      if (!content || !canSee(content, undefined)) return null;
      const stream = await storage.read(content.media.photoKey);
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      return instagramJpeg(Buffer.concat(chunks));
    },
  };
}

export type InstagramService = ReturnType<typeof createInstagramService>;

/** When the member's account is deleted: the connection is forgotten (its token with it), and their post slots. */
export async function removeInstagramLinkOf(userId: string): Promise<void> {
  await InstagramLinkModel.deleteOne({ _id: userId });
  await InstagramPostModel.deleteMany({ userId });
}
