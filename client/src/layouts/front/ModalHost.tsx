import { lazy, Suspense, useEffect, useState, type ComponentType, type LazyExoticComponent } from 'react';
import { useAppSelector } from '../../lib/storeHooks';
import { loadAuthModal, selectIsLoggedIn } from '../../features/auth';
import { loadContentDetailModal, selectDetailOpen } from '../../features/content-detail';
import { isUploadFormModal, loadHeaderImageModal, loadProfilePhotoModal, loadReplaceFileModal, loadUploadModal } from '../../features/upload';
import { loadPaymentModal } from '../../features/payments';
import { loadShareModal } from '../../features/share';
import { loadVerificationModal } from '../../features/knack';
import { loadFollowModal } from '../../features/follows';
import { loadFlagModal } from '../../features/flags';
import { loadSubscriptionModal } from '../../features/subscriptions';
import { loadPrivacyModal } from '../../features/privacy';
import { loadMessageModal } from '../../features/messages';
import { loadProjectModal } from '../../features/projects';
import { loadAnalyticsModal } from '../../features/analytics';
import { selectOpenModal, type ModalName } from '../../lib/ui';
import { useOpenedOnce } from './useOpenedOnce';
import { withAntd } from '../../components/antd/withAntd';

type ModalComponent = LazyExoticComponent<ComponentType<{ name: never; open: boolean }>>;

interface ModalGroup {
  key: string;
  /** The modal names one component renders. */
  has: (name: ModalName | null) => boolean;
  Component: ModalComponent;
  /** Only rendered for a signed-in member (a visitor is sent to the login modal instead): always, or for some names. */
  members: boolean | ((name: ModalName) => boolean);
}

const isAuthModal = (name: ModalName | null) =>
  name === 'login' || name === 'signup' || name === 'forgot-password' || name === 'reset-password' || name === 'artist-register';

/** Each group's code is one lazy chunk, which brings antd with it. */
const GROUPS: ModalGroup[] = [
  { key: 'auth', has: isAuthModal, Component: lazy(withAntd(loadAuthModal)) as ModalComponent, members: false },
  // A visitor may upload to an artist's Top 50 (with the email to confirm); the other upload forms are for members.
  { key: 'upload', has: isUploadFormModal, Component: lazy(withAntd(loadUploadModal)) as ModalComponent, members: (name) => name !== 'upload-top50' },
  { key: 'profile-photo', has: (name) => name === 'profile-photo', Component: lazy(withAntd(loadProfilePhotoModal)) as ModalComponent, members: true },
  { key: 'header-image', has: (name) => name === 'header-image', Component: lazy(withAntd(loadHeaderImageModal)) as ModalComponent, members: true },
  { key: 'payment', has: (name) => name === 'payment', Component: lazy(withAntd(loadPaymentModal)) as ModalComponent, members: true },
  { key: 'share', has: (name) => name === 'share', Component: lazy(withAntd(loadShareModal)) as ModalComponent, members: false },
  { key: 'verification', has: (name) => name === 'verification', Component: lazy(withAntd(loadVerificationModal)) as ModalComponent, members: true },
  { key: 'follow', has: (name) => name === 'follow', Component: lazy(withAntd(loadFollowModal)) as ModalComponent, members: false },
  { key: 'flag', has: (name) => name === 'flag', Component: lazy(withAntd(loadFlagModal)) as ModalComponent, members: true },
  { key: 'subscription', has: (name) => name === 'subscription', Component: lazy(withAntd(loadSubscriptionModal)) as ModalComponent, members: true },
  { key: 'privacy', has: (name) => name === 'privacy', Component: lazy(withAntd(loadPrivacyModal)) as ModalComponent, members: true },
  { key: 'message', has: (name) => name === 'message', Component: lazy(withAntd(loadMessageModal)) as ModalComponent, members: true },
  { key: 'project', has: (name) => name === 'project', Component: lazy(withAntd(loadProjectModal)) as ModalComponent, members: true },
  { key: 'analytics', has: (name) => name === 'analytics', Component: lazy(withAntd(loadAnalyticsModal)) as ModalComponent, members: true },
  { key: 'replace-file', has: (name) => name === 'replace-file', Component: lazy(withAntd(loadReplaceFileModal)) as ModalComponent, members: true },
];

/**
 * One group of modals: loaded the first time one of them opens, then kept (so closing animates, and the next
 * opening is instant).
 */
function ModalSlot({ group, modal }: { group: ModalGroup; modal: ModalName | null }) {
  const loggedIn = useAppSelector(selectIsLoggedIn);
  const membersOnly = typeof group.members === 'function' ? modal !== null && group.members(modal) : group.members;
  const open = group.has(modal) && (!membersOnly || loggedIn);
  const [last, setLast] = useState<ModalName | null>(open ? modal : null);
  useEffect(() => {
    if (open) setLast(modal);
  }, [open, modal]);
  const current = open ? modal : last;
  if (!current) return null;
  const { Component } = group;
  return (
    <Suspense fallback={null}>
      <Component name={current as never} open={open} />
    </Suspense>
  );
}

/** Drawn without antd (a shared link opens it on arrival); its parts that use antd load their own. */
const ContentDetailModal = lazy(loadContentDetailModal);

/** The content detail modal has its own state (the piece and its siblings), beside the ui modal. */
function ContentDetailSlot() {
  const open = useAppSelector(selectDetailOpen);
  if (!useOpenedOnce(open)) return null;
  return (
    <Suspense fallback={null}>
      <ContentDetailModal open={open} />
    </Suspense>
  );
}

/** Renders the open modal of the ui state, and the content detail modal (under it: login asked from the detail shows on top). */
export function ModalHost() {
  const modal = useAppSelector(selectOpenModal);
  return (
    <>
      <ContentDetailSlot />
      {GROUPS.map((group) => (
        <ModalSlot key={group.key} group={group} modal={modal} />
      ))}
    </>
  );
}
