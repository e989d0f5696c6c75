/**
 * The demo's economy, made once through the same calls members make: artists list pieces with plan credits (a
 * listener supports one of Nora's), listeners play and view listed pieces to knacks (90% to the owner, 10% to the
 * supporter), a few comment, and Nora, whose balance passes $10, asks to cash out and waits for an admin. A newcomer
 * who signs in as Nora sees earnings in the wallet, the history, a waiting cash-out, and her earnings analytics.
 */
import type { Types } from 'mongoose';
import type { AuthContext } from '../lib/auth-context';
import { runEarningsRollups } from '../modules/analytics';
import { addComment } from '../modules/comments';
import { SubscriptionModel } from '../modules/subscriptions';
import { grantCredits, setPayoutEmail, UserModel } from '../modules/users';
import { anyOf, ours } from '../lib/query';
import type { Services } from '../services';

type EconomyServices = Pick<Services, 'payments' | 'knacks' | 'wallet'>;

interface Person {
  _id: Types.ObjectId;
  email: string;
  username: string;
}

/** Who lists which piece, and how many listeners then play or view it. */
const LISTINGS: { title: string; song: boolean; payer: 'owner' | 'listener'; tier: 'standard' | 'premium'; knacks: number }[] = [
  { title: 'Sunday Morning Keys', song: true, payer: 'owner', tier: 'premium', knacks: 14 }, // Music 2: $0.99 a knack
  { title: 'Blue Jazz Night', song: true, payer: 'owner', tier: 'standard', knacks: 24 },
  { title: 'Rain on the Tagus', song: true, payer: 'listener', tier: 'standard', knacks: 12 }, // supported: 90% Nora, 10% the listener
  { title: 'Fox in the Snow', song: false, payer: 'owner', tier: 'standard', knacks: 18 },
  { title: 'Tiny Castle', song: false, payer: 'owner', tier: 'standard', knacks: 9 },
  { title: 'Late Bus Beat', song: true, payer: 'owner', tier: 'standard', knacks: 7 },
];

const COMMENTS: [title: string, text: string][] = [
  ['Blue Jazz Night', 'This is my late-night playlist now.'],
  ['Blue Jazz Night', 'The piano at the end!'],
  ['Fox in the Snow', 'Beautiful light.'],
  ['Sunday Morning Keys', 'Played it three times this morning.'],
];

const callerOf = (person: Person): AuthContext => ({ userId: String(person._id), email: person.email, role: 'user' });

/**
 * Runs the demo economy over the seeded artists and pieces (by title); answers what it made. Knacks are made as if
 * each play had started long enough ago, so no one waits for the songs.
 */
export async function seedDemoEconomy(
  services: EconomyServices,
  { artists, pieces }: { artists: Person[]; pieces: Map<string, { id: string; ownerId: string }> },
) {
  const listeners = await UserModel.find(ours({ username: anyOf(Array.from({ length: 40 }, (_, n) => `listener_${String(n + 1).padStart(3, '0')}`)) }), {
    email: 1,
    username: 1,
  })
    .sort({ username: 1 })
    .lean<Person[]>();
  const supporter = listeners[0]!;
  let knacks = 0;

  for (const [index, listing] of LISTINGS.entries()) {
    const piece = pieces.get(listing.title);
    if (!piece) continue;
    const contentId = piece.id;
    const owner = artists.find((artist) => String(artist._id) === piece.ownerId);
    const payer = listing.payer === 'owner' ? owner : supporter;
    if (!payer) continue;
    const change = { standard: listing.tier === 'standard' ? 1 : 0, premium: listing.tier === 'premium' ? 1 : 0 };
    await grantCredits(String(payer._id), change, `demo:${listing.title}`, 'demo');
    await services.payments.pay(callerOf(payer), { userId: String(payer._id), contentId });

    // Each listener counts once per piece; spreading the pieces over the listeners keeps each under the daily
    // number of knacks that asks for an emailed code.
    for (let n = 0; n < listing.knacks; n += 1) {
      const listener = listeners[(index * 7 + n) % listeners.length]!;
      const caller = callerOf(listener);
      const started = new Date(Date.now() - 10 * 60_000);
      // A song knacks after a play long enough; an image when it is viewed.
      const play = listing.song ? await services.knacks.startPlay(caller, contentId, started) : null;
      await services.knacks.add(caller, { contentId, userId: caller.userId, ...(play ? { playId: play.playId } : {}) });
      knacks += 1;
    }
  }

  for (const [index, [title, text]] of COMMENTS.entries()) {
    const piece = pieces.get(title);
    const listener = listeners[index + 1]!;
    if (piece) await addComment(callerOf(listener), { contentId: piece.id, ownerId: piece.ownerId, userId: String(listener._id), comment: text });
  }

  // Nora asks for her balance; an admin has not approved it yet.
  const nora = artists.find((artist) => artist.username === 'nora_vale')!;
  await setPayoutEmail(String(nora._id), 'nora.vale@paypal.example');
  const cashOut = await services.wallet.requestCashOut(callerOf(nora), String(nora._id));

  // Nora is on Plan 2, so that her earnings analytics open (a demo subscription: no provider renews it, and it does
  // not end), and the rollups they read are counted now rather than at the job's next run.
  await SubscriptionModel.create({ userId: nora._id, planId: 2, subscriptionId: 'demo-nora-plan-2', status: 'active', currentPeriodEnd: null });
  await runEarningsRollups();
  return { listings: LISTINGS.length, knacks, comments: COMMENTS.length, waitingCashOutMicros: cashOut.amountMicros };
}
