/**
 * "Download my data" and "Delete my account" (settings). This module writes only its own collection (the
 * deletions): every part of a member's data is exported, and removed or anonymised, by the module that owns it,
 * through that module's index. A module whose data is personal adds its part to EXPORT and DELETION_STEPS.
 *
 * Deleting is safe to stop anywhere: the deletion is recorded first (an insert on the member's id), every step
 * is safe to run again, and a deletion not finished is finished by the job (finishStalledDeletions) or by an
 * admin calling again. Ledger entries are never removed: they keep the member's account id (`user:{id}`), which
 * no longer names anyone once the account is gone, so every balance still sums.
 */
import mongoose, { Types } from 'mongoose';
import { notFound } from '../../lib/errors';
import type { AuthContext } from '../../lib/auth-context';
import { requireAdmin, requireSelfOrAdmin } from '../../lib/permissions';
import { AppError } from '../../lib/errors';
import type { AuditDetails } from '../../lib/audit-details';
import type { Logger } from '../../lib/logger';
import { isDuplicateKey } from '../../lib/duplicate-key';
import { FAULT_POINTS, faultPoint } from '../../lib/fault-points';
import type { Schemas } from '../../lib/openapi-types';
import { publicPages } from '../../lib/public-pages';
import { clearPublicResponses } from '../../lib/public-responses';
import { insertWhole } from '../../lib/query';
import { consumeLimit, type Limit } from '../../lib/rate-limit';
import { checkCurrentPassword, endEverySessionOf, REGISTRATION_TTL_MS } from '../auth';
import { commentsExportOf, removeCommentsOf } from '../comments';
import { forgetMemberInProductEvents, productEventsExportOf } from '../events';
import { messagesExportOf, removeMessagesOf } from '../messages';
import { handOverSupportedPieces, piecesExportOf, removePiecesOf, type ContentsService } from '../contents';
import { removeFollowsOf } from '../follows';
import { removeApiKeysOf } from '../api-keys';
import { removeFlagsOf } from '../flags';
import { projectsExportOf, removeProjectsOf } from '../projects';
import { removeWalletLinkOf, walletLinkExportOf } from '../stellar';
import { nftMintsExportOf, removeNftMintsOf } from '../nft';
import { bidsExportOf, removeBidsOf } from '../bids';
import { removeInstagramLinkOf } from '../instagram';
import { ledgerExportOf } from '../ledger';
import { removeUploadsOf, type MediaService } from '../media';
import { currentSubscriptionOf, type SubscriptionsService } from '../subscriptions';
import { accountExportOf, closeAccount, removeAccount, userReads, type UserDoc } from '../users';
import { checkBalanceSettled, forfeitBalance } from '../wallet';
import { AccountDeletionModel, type AccountDeletionDoc } from './account.model';

export const ACCOUNT_MESSAGES = {
  noMember: 'This member does not exist.',
  deleted: 'Your account is deleted.',
  memberDeleted: 'The account is deleted.',
  adminsOnly: 'Only admins can delete members.',
  ownAccount: 'Delete your own account from Settings.',
  tooManyDownloads: 'Too many downloads of your data. Please wait and try again.',
} as const;

/** Downloads of one's data per caller: each reads everything the member has, so a script cannot loop on it. */
export const DOWNLOAD_LIMIT: Limit = { max: 10, windowMs: 60 * 60_000 };
/** A deletion still unfinished this long after it started was stopped half-way (a request takes seconds). */
export const STALLED_DELETION_MS = 10 * 60_000;
const EXPORT_FORMAT = 'knack-data-export/1';

export interface AccountDeps {
  /** Pieces' exports, and listing again a piece the member's flags held. */
  contents: Pick<ContentsService, 'dto' | 'setReview'>;
  media: Pick<MediaService, 'remove'>;
  /** Stops the renewals of the member's plan (through the payment provider). */
  subscriptions: Pick<SubscriptionsService, 'setRenewal'>;
  /** ADMIN_EMAILS: the exported account says the member's role. */
  adminEmails: readonly string[];
  logger: Logger;
}

export interface DataExport {
  filename: string;
  data: Schemas['DataExport'];
}

export function createAccountService({ contents, media, subscriptions, adminEmails, logger }: AccountDeps) {
  const log = logger.child({ module: 'account' });

  /** The parts of the export besides the account, each made by the module that owns it. */
  const EXPORT = {
    pieces: (userId: string) => piecesExportOf(userId, contents),
    comments: commentsExportOf,
    messages: messagesExportOf,
    ledgerEntries: ledgerExportOf,
    projects: projectsExportOf,
    stellarWallet: walletLinkExportOf,
    nftMints: nftMintsExportOf,
    bids: bidsExportOf,
    productEvents: productEventsExportOf,
  };

  /**
   * The steps of a deletion, in order, each safe to run again. The account is closed first, so that nobody can
   * sign in to it or use a session of it while the rest goes; it is removed last, once nothing refers to it.
   * The audit log has no step: the entries of an admin's actions, with the email they acted under, are kept after
   * their account is gone, because they are the record of what was done to other members' things and money.
   */
  const DELETION_STEPS: { name: string; run: (userId: string) => Promise<unknown> }[] = [
    { name: 'close the account', run: closeAccount },
    { name: 'end every session', run: endEverySessionOf },
    { name: 'remove the API keys', run: removeApiKeysOf },
    { name: 'take back the flags', run: (userId) => removeFlagsOf(userId, { contents }) },
    { name: 'stop the plan renewing', run: stopRenewals },
    { name: 'give up the balance left', run: (userId) => forfeitBalance(userId) },
    { name: 'hand the pieces supported to their owners', run: handOverSupportedPieces },
    { name: 'remove the pieces and their files', run: (userId) => removePiecesOf(userId, media) },
    { name: 'remove the other uploads', run: (userId) => removeUploadsOf(userId, media) },
    { name: 'remove the comments', run: (userId) => removeCommentsOf(userId) },
    { name: "remove the member's side of their conversations", run: removeMessagesOf },
    { name: 'remove the projects', run: removeProjectsOf },
    { name: 'remove the follows', run: removeFollowsOf },
    { name: 'unlink the Stellar wallet', run: removeWalletLinkOf },
    { name: 'remove the NFT mints', run: removeNftMintsOf },
    { name: 'withdraw the bids', run: removeBidsOf },
    { name: 'forget the Instagram connection', run: removeInstagramLinkOf },
    { name: 'take the member off their product events', run: forgetMemberInProductEvents },
    { name: 'remove the account', run: removeAccount },
  ];

  /** A deleted member is never charged again: their plan runs to the paid month's end and is not renewed. */
  async function stopRenewals(userId: string): Promise<void> {
    const current = await currentSubscriptionOf(userId);
    if (current && !current.cancelAtPeriodEnd) await subscriptions.setRenewal({ userId, email: '', role: 'user' }, current._id, true);
  }

  /** The member themself or an admin; to anyone else (and for an id nobody has) the member does not exist. */
  async function ownMember(caller: AuthContext, id: string): Promise<void> {
    requireSelfOrAdmin(caller, id, ACCOUNT_MESSAGES.noMember);
    if (!(await userReads.exists({ _id: new Types.ObjectId(id) }))) throw notFound(ACCOUNT_MESSAGES.noMember);
  }

  async function finish(userId: string): Promise<void> {
    for (const step of DELETION_STEPS) {
      try {
        await step.run(userId);
        faultPoint(FAULT_POINTS.deletionAfterStep);
      } catch (err) {
        log.error({ err, userId, step: step.name }, 'account deletion stopped; the job finishes it');
        throw err;
      }
    }
    publicPages.clear();
    clearPublicResponses();
    await AccountDeletionModel.updateOne({ _id: userId }, { $set: { finishedAt: new Date() } });
    log.info({ userId }, 'account deleted');
  }

  /**
   * The balance rule (wallet), then the deletion is recorded and its steps run. A deletion recorded before (stopped
   * half-way, or running now) is finished without asking about the balance again: it was decided then.
   */
  async function deleteWithRules(caller: AuthContext, id: string, giveUpBalance: boolean, byAdmin: boolean, now: Date): Promise<void> {
    if (!(await AccountDeletionModel.exists({ _id: id }))) {
      await checkBalanceSettled(id, giveUpBalance, { byAdmin });
      try {
        await insertWhole<AccountDeletionDoc>(AccountDeletionModel, {
          _id: id,
          requestedBy: new Types.ObjectId(caller.userId),
          startedAt: now,
          finishedAt: null,
        });
      } catch (err) {
        if (!isDuplicateKey(err)) throw err; // a twin request recorded it a moment ago: finishing it again is safe
      }
      faultPoint(FAULT_POINTS.deletionAfterRecord);
    }
    await finish(id);
  }

  return {
    async exportData(caller: AuthContext, id: string, now = new Date()): Promise<DataExport> {
      await ownMember(caller, id);
      await consumeLimit(`data-export:${caller.userId}`, DOWNLOAD_LIMIT, ACCOUNT_MESSAGES.tooManyDownloads, now);
      const account = await accountExportOf(id, adminEmails);
      if (!account) throw notFound(ACCOUNT_MESSAGES.noMember);
      const [pieces, comments, messages, ledgerEntries, projects, stellarWallet, nftMints, bids, productEvents] = await Promise.all([
        EXPORT.pieces(id),
        EXPORT.comments(id),
        EXPORT.messages(id),
        EXPORT.ledgerEntries(id),
        EXPORT.projects(id),
        EXPORT.stellarWallet(id),
        EXPORT.nftMints(id),
        EXPORT.bids(id),
        EXPORT.productEvents(id),
      ]);
      return {
        filename: `knack-data-${account.user.username}-${now.toISOString().slice(0, 10)}.json`,
        data: {
          format: EXPORT_FORMAT,
          exportedAt: now.toISOString(),
          account,
          pieces,
          comments,
          messages,
          ledgerEntries,
          projects,
          stellarWallet,
          nftMints,
          bids,
          productEvents,
        },
      };
    },

    /**
     * Deletes the member's account: the caller's password first (counted against guessing), then the balance rule
     * (wallet), then the deletion is recorded and its steps run. A deletion recorded before (stopped half-way, or
     * running now) is finished without asking about the balance again: the member decided then.
     */
    async deleteAccount(caller: AuthContext, id: string, request: { password?: string; giveUpBalance?: boolean }, now = new Date()) {
      await ownMember(caller, id);
      await checkCurrentPassword(caller.userId, request.password);
      await deleteWithRules(caller, id, request.giveUpBalance ?? false, false, now);
      return { message: ACCOUNT_MESSAGES.deleted };
    },

    /**
     * An admin deleting a member's account (the admin area): the same rules as the member's own deletion, without
     * the admin's password (the admin is signed in, and the action is recorded). An admin's own account is deleted
     * from Settings, with its password. Answers what the audit entry records.
     */
    async deleteMember(caller: AuthContext | undefined, id: string, request: { giveUpBalance?: boolean }, now = new Date()) {
      requireAdmin(caller, ACCOUNT_MESSAGES.adminsOnly);
      if (caller!.userId === id) throw new AppError(409, 'conflict', ACCOUNT_MESSAGES.ownAccount);
      const member = await userReads.byId<Pick<UserDoc, 'username' | 'email'>>(new Types.ObjectId(id), { username: 1, email: 1 });
      if (!member) throw notFound(ACCOUNT_MESSAGES.noMember);
      const giveUpBalance = request.giveUpBalance ?? false;
      await deleteWithRules(caller!, id, giveUpBalance, true, now);
      const audit: AuditDetails = {
        target: { kind: 'member', id },
        before: { username: member.username, email: member.email },
        after: { deleted: true, balanceGivenUp: giveUpBalance },
      };
      return { message: ACCOUNT_MESSAGES.memberDeleted, audit };
    },

    /**
     * Removes the waiting accounts (left by visitors' Top 50 entries) whose last registration link has ended unused,
     * with their songs and files, through the steps of any deletion (the job, hourly). Answers how many it removed.
     */
    async removeUnregisteredAccounts(now = new Date()): Promise<number> {
      const ended = new Date(now.getTime() - REGISTRATION_TTL_MS);
      const waiting = await userReads.many<Pick<UserDoc, '_id' | 'activationSentAt' | 'createdAt'>>(
        { awaitsRegistration: true },
        { projection: { activationSentAt: 1, createdAt: 1 } },
      );
      // Its last link's mailing, or its making when no mail went out (one being made now is not touched).
      const unregistered = waiting.filter((account) => (account.activationSentAt ?? account.createdAt) < ended);
      for (const { _id } of unregistered) {
        const id = String(_id);
        try {
          await insertWhole<AccountDeletionDoc>(AccountDeletionModel, { _id: id, requestedBy: _id, startedAt: now, finishedAt: null });
        } catch (err) {
          if (!isDuplicateKey(err)) throw err; // being removed already: finishing it again is safe
        }
        await finish(id);
      }
      return unregistered.length;
    },

    /** Finishes the deletions stopped half-way (the job, every 10 minutes). Answers how many it finished. */
    async finishStalledDeletions(now = new Date()): Promise<number> {
      const stalled = await AccountDeletionModel.find(
        { finishedAt: null, startedAt: mongoose.trusted({ $lt: new Date(now.getTime() - STALLED_DELETION_MS) }) },
        { _id: 1 },
      ).lean<Pick<AccountDeletionDoc, '_id'>[]>();
      for (const { _id } of stalled) await finish(_id);
      return stalled.length;
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
