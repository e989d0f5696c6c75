import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { skipToken } from '@reduxjs/toolkit/query/react';
import { useGetProjectsOfUserQuery, useGetWalletLinkQuery, useGetWalletSummaryQuery } from '../../api/generated/endpoints';
import { PATHS } from '../../lib/constants';
import { useAppDispatch, useAppSelector } from '../../lib/storeHooks';
import { modalOpened } from '../../lib/ui';
import { Button } from '../../components/button';
import { UserAvatar } from '../../components/UserAvatar';
import { selectUser } from '../../features/auth';
import { displayUsername } from '../../lib/userNames';
import { formatUsd } from '../../components/format';
import { useWalletModal, WalletList } from '../../features/stellar';

/**
 * The profile summary panel (opened from the avatar in the top navigation): the avatar, the full name linking to
 * the own profile, the linked Stellar wallet's short address (or 'Connect a wallet'), SETTINGS and MESSAGES (to the
 * inbox), the counts of Projects, Uploads ($), Collections ($) and Total value ($), and the wallet list (connect,
 * unlink), and Earnings analytics (the modal). The money figures are the wallet's, loaded when the panel mounts (each opening), so they never hold up the
 * page, and so is the member's count of projects.
 */
export default function ProfileSummary({ id, onClose }: { id: string; onClose: () => void }) {
  const user = useAppSelector(selectUser);
  const dispatch = useAppDispatch();
  const panel = useRef<HTMLElement>(null);
  // Asked again at each opening (what was shown last time is shown meanwhile), and again while it is open when money
  // changes on this client (a listing paid).
  const wallet = useGetWalletSummaryQuery(user ? { path: { id: user.id } } : skipToken, { refetchOnMountOrArgChange: true });
  const walletLink = useGetWalletLinkQuery(user ? undefined : skipToken);
  const { connect: connectWallet, modal: walletModal } = useWalletModal();
  const projects = useGetProjectsOfUserQuery(user ? { path: { userId: user.id } } : skipToken, { refetchOnMountOrArgChange: true });

  useEffect(() => panel.current?.focus(), []);

  if (!user) return null;
  const name = user.fullName.trim() || displayUsername(user.username);
  const figure = (usd: number | undefined) => (usd === undefined ? '…' : formatUsd(usd));
  const summary = wallet.data;
  const figures = [
    { label: 'Projects', value: projects.data ? String(projects.data.projects.length) : '…', testId: 'summary-projects' },
    { label: 'Uploads', value: figure(summary?.uploads), testId: 'summary-uploads' },
    { label: 'Collections', value: figure(summary?.collections), testId: 'summary-collections' },
    { label: 'Total value', value: figure(summary?.totalValue), testId: 'summary-total' },
  ];

  return (
    <section ref={panel} id={id} className="kn-summary" role="dialog" aria-label="Profile summary" tabIndex={-1}>
      <header className="kn-summary__head">
        <UserAvatar user={user} size={56} />
        <div className="kn-summary__who">
          <Link to={PATHS.myProfile} className="kn-summary__name" title={name} onClick={onClose}>
            {name}
          </Link>
          {walletLink.data?.linked ? (
            <span className="kn-summary__address kn-summary__address--linked" title={walletLink.data.address} data-testid="summary-address">
              {walletLink.data.addressShort}
            </span>
          ) : (
            <span className="kn-summary__address" data-testid="summary-address">
              {walletLink.data ? 'Connect a wallet' : '…'}
            </span>
          )}
        </div>
      </header>

      <div className="kn-summary__actions">
        <Link to={PATHS.settings} className="kn-button kn-button--default kn-summary__action" onClick={onClose}>
          SETTINGS
        </Link>
        <Link to={PATHS.inbox} className="kn-button kn-button--default kn-summary__action" onClick={onClose}>
          MESSAGES
        </Link>
      </div>

      {wallet.error ? (
        <p className="kn-summary__error" role="alert">
          Your figures could not be loaded.{' '}
          <button type="button" className="kn-retry" onClick={() => void wallet.refetch()}>
            Try again
          </button>
        </p>
      ) : null}
      <dl className="kn-summary__figures" aria-busy={!summary && !wallet.error}>
        {figures.map((item) => (
          <div key={item.label}>
            <dt>{item.label}</dt>
            <dd data-testid={item.testId}>{item.value}</dd>
          </div>
        ))}
      </dl>
      <Button
        kind="text"
        className="kn-summary__analytics"
        onClick={() => {
          onClose();
          dispatch(modalOpened('analytics'));
        }}
      >
        Earnings analytics
      </Button>

      <h3 className="kn-summary__title" id={`${id}-wallets`}>
        Wallets
      </h3>
      <p className="kn-summary__hint">Link the Stellar wallet you use on Knack. Its signature proves the address is yours.</p>
      <WalletList labelledBy={`${id}-wallets`} onConnect={connectWallet} />
      {walletModal}
    </section>
  );
}
