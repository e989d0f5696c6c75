import { Button } from '../../../components/button';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { selectIsLoggedIn, selectUser } from '../../auth';
import { modalOpened } from '../../../lib/ui';

/**
 * Beside a piece that is not monetized yet: its owner can monetize it, another member can support it (pay the
 * listing fee and get 10% of what it earns). Visitors are asked to log in first.
 */
export function MonetizeButton({ contentId, ownerId, isPaidOut }: { contentId: string; ownerId: string; isPaidOut: boolean }) {
  const dispatch = useAppDispatch();
  const loggedIn = useAppSelector(selectIsLoggedIn);
  const own = useAppSelector(selectUser)?.id === ownerId;
  if (isPaidOut) return null;
  const open = () =>
    dispatch(loggedIn ? modalOpened({ name: 'payment', paymentType: 'dollar', contentId }) : modalOpened({ name: 'login', origin: 'onClickKnack' }));
  return (
    <Button size="small" kind="primary" ghost className="kn-monetize-button" onClick={open}>
      {own ? 'Monetize' : 'Support'}
    </Button>
  );
}
