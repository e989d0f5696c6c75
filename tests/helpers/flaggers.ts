/**
 * Members whose flags count toward holding a piece: accounts made with the clock moved back past the counting age,
 * each following a member (something besides flagging), signed in again now.
 */
import type { Express } from 'express';
import request from 'supertest';
import { signAccessToken } from '../../server/lib/access-token';
import { COUNTING_ACCOUNT_AGE_MS } from '../../server/modules/flags';
import { testConfig } from './app';
import { freezeDate } from './clock';
import { bearer, createMember, type TestMember } from './ledger-factory';

/** The member with an access token signed at the current (real or frozen) time. */
export const signedInNow = (member: TestMember): TestMember => ({
  ...member,
  token: signAccessToken(testConfig().auth, { userId: member.id, tokenVersion: 0 }),
});

/** Follows `followed` as `member`, through the API. */
export const follow = (app: Express, member: TestMember, followed: TestMember) =>
  request(app).post('/api/v2/follow/make-following').set(bearer(member)).send({ subjectorId: followed.id, myuserId: member.id, set: true }).expect(200);

/**
 * `count` members made a minute more than the counting age ago (by `make`, createMember unless told), each
 * following `followed` then: their flags count from now on.
 */
export async function countingFlaggers(app: Express, followed: TestMember, count: number, make: () => Promise<TestMember> = () => createMember()) {
  const clock = freezeDate(Date.now() - COUNTING_ACCOUNT_AGE_MS - 60_000);
  let members: TestMember[];
  try {
    members = await Promise.all(Array.from({ length: count }, () => make()));
    for (const member of members) await follow(app, member, followed);
  } finally {
    clock.restore();
  }
  return members.map(signedInNow);
}
