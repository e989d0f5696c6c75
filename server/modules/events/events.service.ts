/**
 * Recording product events: who sent them (the bearer token, or the events token a beacon carries; never the body),
 * the limits per address and per member counted first, then one fact inserted per event. The answer leaves before
 * the events go on to the analytics service (events.forwarding.ts). Do Not Track is answered before any of this, by
 * the router: such a request is not read, counted or stored.
 */
import { randomUUID } from 'node:crypto';
import { Types } from 'mongoose';
import type { OutgoingEvent } from '../../integrations/analytics';
import type { AuthContext } from '../../lib/auth-context';
import { AppError, badRequest } from '../../lib/errors';
import type { Schemas } from '../../lib/openapi-types';
import { consumeLimit, type Limit } from '../../lib/rate-limit';
import { userReads, type UserDoc } from '../users';
import { noteEventsOf } from './events.lists';
import { ProductEventModel, type ProductEventDoc } from './events.model';
import { uuidOfFact, type EventForwarder } from './events.forwarding';
import { EVENTS_TOKEN_TTL_SECONDS, memberOfEventsToken, signEventsToken, type EventsTokenKey } from './events.token';

export const EVENTS_MESSAGES = {
  tooLarge: 'A batch of events may be at most 32 KB.',
  tooMany: 'Too many events sent. Please wait and try again.',
  badToken: 'The events token is not valid or has expired.',
  outOfTime: 'An event must have happened within a day of now.',
} as const;

/**
 * Batches per minute. The app sends one every few seconds at most while something happens (and one more as the page
 * is hidden), so a member's tabs stay well inside theirs; an address is shared by the people behind one network.
 */
export const EVENTS_LIMITS = {
  member: { max: 30, windowMs: 60_000 },
  address: { max: 120, windowMs: 60_000 },
} satisfies Record<string, Limit>;

/** The largest body the events call reads: 50 events of the contract's largest size fit in well under half of it. */
export const EVENTS_BODY_LIMIT_BYTES = 32 * 1024;

/** How far an event's time may be from the server's, either way: the app sends within seconds of the event. */
const CLOCK_SLACK_MS = 86_400_000;

export interface RecordedEvents {
  answer: Schemas['ProductEventsRecorded'];
  /** What the analytics service is given once the member has been answered. */
  outgoing: OutgoingEvent[];
}

export interface EventsServiceDeps {
  tokenKey: EventsTokenKey;
  forwarder: EventForwarder;
}

export function createEventsService({ tokenKey, forwarder }: EventsServiceDeps) {
  /**
   * The member a batch belongs to: the session's, else the events token's. A token that does not verify is refused,
   * and so is one of an account that is gone or closed since (its events would name a member who is no longer one).
   */
  async function memberOf(caller: AuthContext | undefined, eventsToken: string | undefined): Promise<string | null> {
    if (caller) return caller.userId;
    if (!eventsToken) return null;
    const memberId = memberOfEventsToken(tokenKey, eventsToken);
    const account = memberId
      ? await userReads.byIdShared<Pick<UserDoc, 'isActive' | 'deactivatedAt'>>(new Types.ObjectId(memberId), { isActive: 1, deactivatedAt: 1 })
      : null;
    if (!memberId || !account?.isActive || account.deactivatedAt) throw new AppError(401, 'unauthorized', EVENTS_MESSAGES.badToken);
    return memberId;
  }

  return {
    async record(batch: Schemas['ProductEventBatch'], caller: AuthContext | undefined, address: string, now = new Date()): Promise<RecordedEvents> {
      await consumeLimit(`events:ip:${address}`, EVENTS_LIMITS.address, EVENTS_MESSAGES.tooMany, now);
      const memberId = await memberOf(caller, batch.eventsToken);
      if (memberId) await consumeLimit(`events:member:${memberId}`, EVENTS_LIMITS.member, EVENTS_MESSAGES.tooMany, now);
      const facts: ProductEventDoc[] = batch.events.map((event) => ({
        _id: new Types.ObjectId(),
        name: event.name,
        at: new Date(event.at),
        memberId: memberId ? new Types.ObjectId(memberId) : null,
        props: event.props?.contentId ? { contentId: event.props.contentId } : {},
      }));
      if (facts.some((fact) => Math.abs(fact.at.getTime() - now.getTime()) > CLOCK_SLACK_MS)) throw badRequest(EVENTS_MESSAGES.outOfTime);
      // On the member's list first, so that none of their events is stored without being on it.
      if (memberId)
        await noteEventsOf(
          memberId,
          facts.map((fact) => fact._id),
          now,
        );
      // One insert of whole documents our code built: each under a fresh id, so none can collide.
      await ProductEventModel.collection.insertMany(facts, { ordered: true });
      const anonymousId = `anonymous:${randomUUID()}`;
      return {
        answer: {
          stored: facts.length,
          ...(caller ? { eventsToken: signEventsToken(tokenKey, caller.userId), eventsTokenExpiresIn: EVENTS_TOKEN_TTL_SECONDS } : {}),
        },
        outgoing: facts.map((fact) => ({
          uuid: uuidOfFact(String(fact._id)),
          name: fact.name,
          at: fact.at,
          memberId,
          anonymousId,
          props: { ...fact.props },
        })),
      };
    },

    /** Hands the stored events to the analytics service, after the answer; returns at once. */
    forward(events: OutgoingEvent[]): void {
      forwarder.enqueue(events);
    },

    /** Resolves once the events waiting for the analytics service were sent or given up (a graceful stop). */
    forwarded: () => forwarder.idle(),
  };
}

export type EventsService = ReturnType<typeof createEventsService>;
