import { lazy, Suspense, useEffect, useState } from 'react';
import { useAppSelector } from '../../app/hooks';
import { loadAuthModal, type AuthModalName } from '../../features/auth';
import { selectOpenModal } from '../../features/ui';

const AuthModal = lazy(loadAuthModal);

const isAuthModal = (name: string | null): name is AuthModalName =>
  name === 'login' || name === 'signup' || name === 'forgot-password' || name === 'reset-password';

/**
 * Renders the open modal of the ui state. The modal code is a lazy chunk, loaded the first time one opens
 * and then kept (so closing animates, and the next opening is instant).
 */
export function ModalHost() {
  const modal = useAppSelector(selectOpenModal);
  const [last, setLast] = useState<AuthModalName | null>(isAuthModal(modal) ? modal : null);
  useEffect(() => {
    if (isAuthModal(modal)) setLast(modal);
  }, [modal]);
  const current = isAuthModal(modal) ? modal : last;
  if (!current) return null;
  return (
    <Suspense fallback={null}>
      <AuthModal name={current} open={isAuthModal(modal)} />
    </Suspense>
  );
}
