import { lazy, Suspense, useCallback, useEffect, useId, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { useAppSelector } from '../../lib/storeHooks';
import { UserAvatar } from '../../components/UserAvatar';
import { selectUser } from '../../features/auth';
import './profile-summary.css';

// The panel's code (and its wallet figures call) loads the first time it opens, not with the page.
const ProfileSummary = lazy(() => import('./ProfileSummary'));

/**
 * The member's avatar at the end of the top navigation (at every width): it opens the profile summary panel
 * under it. The panel closes with Escape (focus back here), a click outside it (but in a modal it opened), or on
 * going to another page.
 */
export function ProfileSummaryButton() {
  const user = useAppSelector(selectUser);
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const { pathname } = useLocation();
  const close = useCallback(() => setOpen(false), []);

  useEffect(() => close(), [pathname, close]);

  useEffect(() => {
    if (!open) return;
    // A modal the panel opened (the wallet modal) is drawn outside it, over the page: a click or Escape there is the
    // modal's, and the panel stays open under it.
    const inPanelOrItsModal = (target: EventTarget | null) =>
      root.current?.contains(target as Node) || (target instanceof Element && target.closest('.ant-modal-root') !== null);
    const onPointer = (event: PointerEvent) => {
      if (!inPanelOrItsModal(event.target)) close();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || (event.target instanceof Element && event.target.closest('.ant-modal-root'))) return;
      close();
      trigger.current?.focus();
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open, close]);

  if (!user) return null;
  return (
    <div className="kn-summary-anchor" ref={root}>
      <button
        ref={trigger}
        type="button"
        className="kn-summary-trigger"
        aria-label="Profile summary"
        title="Profile summary"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((shown) => !shown)}
      >
        <UserAvatar user={user} size={36} />
      </button>
      {open ? (
        <Suspense fallback={null}>
          <ProfileSummary id={panelId} onClose={close} />
        </Suspense>
      ) : null}
    </div>
  );
}
