import { Link } from 'react-router-dom';
import Button from 'antd/es/button';
import Skeleton from 'antd/es/skeleton';
import WalletOutlined from '@ant-design/icons/es/icons/WalletOutlined';
import type { CachedError } from '../../../api/cache';
import { useGetWalletSummaryQuery } from '../../../api/generated/endpoints';
import { PATHS } from '../../../lib/constants';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { ErrorPage } from '../../../components/errors';
import { EmbedHostsTable } from '../../analytics/entry';
import { selectUser } from '../../auth';
import { modalOpened } from '../../../lib/ui';
import { CancelCashOut, isCancellable } from '../components/CancelCashOut';
import { HistoryList } from '../components/HistoryList';
import { ledgerEntryIdOf, ProofDownload } from '../components/ProofDownload';
import { StatementDownload } from '../components/StatementDownload';
import { useHistory, type HistoryItem } from '../hooks/useHistory';
import '../components/wallet.css';
import { PageHead } from '../../../components/PageHead';
import { formatUsd } from '../../../components/format';

/** An item's proof, when it has a ledger entry; Cancel on a cash-out request that waits. */
function proofOf(item: HistoryItem) {
  if (isCancellable(item)) return <CancelCashOut item={item} />;
  const entryId = ledgerEntryIdOf(item);
  return entryId ? <ProofDownload entryId={entryId} label={`Proof: ${item.activity}`} /> : null;
}

const day = (at: string) => new Date(at).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/**
 * `/wallet`: the member's balance and cash-out (from $10, the price modal), Uploads $,
 * Collections $ and Total value $, where their embeds earn (plays and earnings by embedding site), the payout account,
 * a period's statement to download, and the earnings history. Payouts run on the 1st of
 * each month for balances of at least $10.
 */
export default function WalletPage() {
  const dispatch = useAppDispatch();
  // The route guard lets only members with a stored account in.
  const user = useAppSelector(selectUser)!;
  // Both load again by themselves when money changes on this client (a listing paid, a cash-out asked).
  const wallet = useGetWalletSummaryQuery({ path: { id: user.id } });
  const history = useHistory(user.id, 'all');

  const failure = wallet.error as CachedError | undefined;
  if (failure) return <ErrorPage status={failure.status || 500} message={failure.message} />;
  const summary = wallet.data;
  return (
    <div className="kn-wallet">
      <PageHead
        icon={<WalletOutlined aria-hidden />}
        title="Wallet"
        sub="What your pieces and the pieces you support have earned. Payouts go out on the 1st of each month from $10."
      />
      {!summary ? (
        <Skeleton active paragraph={{ rows: 5 }} />
      ) : (
        <>
          <section className="kn-wallet__balance" aria-label="Balance">
            <div>
              <span className="kn-wallet__label">Available balance</span>
              <strong className="kn-wallet__amount" data-testid="wallet-balance">
                {formatUsd(summary.balance)}
              </strong>
              <span className="kn-wallet__hint">
                {summary.pendingCashOut > 0 ? `${formatUsd(summary.pendingCashOut)} cash-out waiting for approval · ` : ''}
                Next payout {day(summary.nextPayoutAt)}
              </span>
            </div>
            <div className="kn-wallet__cash-out">
              <Button
                type="primary"
                size="large"
                disabled={!summary.canCashOut}
                onClick={() => dispatch(modalOpened({ name: 'payment', paymentType: 'price' }))}
              >
                Cash out
              </Button>
              {!summary.canCashOut ? <span className="kn-wallet__hint">Cash-out from {formatUsd(summary.minCashOut)}</span> : null}
              <Button onClick={() => dispatch(modalOpened('analytics'))}>Earnings analytics</Button>
            </div>
          </section>
          <dl className="kn-wallet__figures">
            <div>
              <dt>Uploads</dt>
              <dd data-testid="wallet-uploads">{formatUsd(summary.uploads)}</dd>
            </div>
            <div>
              <dt>Collections</dt>
              <dd data-testid="wallet-collections">{formatUsd(summary.collections)}</dd>
            </div>
            <div>
              <dt>Total value</dt>
              <dd data-testid="wallet-total">{formatUsd(summary.totalValue)}</dd>
            </div>
            <div>
              <dt>Paid out</dt>
              <dd>{formatUsd(summary.paidOut)}</dd>
            </div>
          </dl>
          <EmbedHostsTable userId={user.id} />
          <section className="kn-wallet__payout" aria-labelledby="kn-payout-where">
            <h2 id="kn-payout-where" className="kn-section-title">
              Where payouts go
            </h2>
            <p>
              {summary.payoutAccount?.paypal ? (
                <>
                  To the PayPal account <strong>{summary.payoutAccount.paypal}</strong>.{' '}
                  {summary.payoutAccount.held ? (
                    <strong data-testid="wallet-payout-held">
                      On hold: it was set while someone else may have had your account, so nothing is paid to it until you confirm it.{' '}
                    </strong>
                  ) : null}
                </>
              ) : (
                'No PayPal account yet: payouts wait until you add one. '
              )}
              <Link to={`${PATHS.settings}#payout`}>{summary.payoutAccount?.held ? 'Confirm or change it in Settings' : 'Change it in Settings'}</Link>
            </p>
          </section>
        </>
      )}
      <StatementDownload userId={user.id} />
      <section className="kn-wallet__history" aria-labelledby="kn-earnings-title">
        <div className="kn-wallet__history-head">
          <h2 id="kn-earnings-title" className="kn-section-title">
            Earnings history
          </h2>
          <Link to={PATHS.activityHistory}>All activity</Link>
        </div>
        <HistoryList {...history} action={proofOf} empty="No earnings yet: when another member plays or views a monetized piece of yours, it shows here." />
      </section>
      <section className="kn-wallet__proofs" aria-labelledby="kn-proofs-title">
        <h2 id="kn-proofs-title" className="kn-section-title">
          What a proof proves
        </h2>
        <p>
          After each day ends (UTC), Knack puts one fingerprint of all that day&apos;s ledger entries, its Merkle root, on the Stellar network. The proof of an
          entry lets anyone check, without trusting Knack, that the entry is in that root: check it on the <Link to={PATHS.verifyProof}>verifier page</Link> or
          with <code>scripts/verify-proof.mjs</code>.
        </p>
        <p>
          <strong>It proves</strong> that no entry of a closed day was changed or dropped after its root was anchored on Stellar: the entry, exactly as the
          proof shows it, is one of that day&apos;s entries.
        </p>
        <p>
          <strong>It does not prove:</strong>
        </p>
        <ul>
          <li>that an entry was right when it was written (a wrong amount written at the time is in the root like any other);</li>
          <li>anything about today&apos;s entries: a day&apos;s root is made after midnight UTC and anchored within the hour;</li>
          <li>anything about entries from before anchoring began.</li>
        </ul>
      </section>
    </div>
  );
}
