import { useAppDispatch } from '../../../app/hooks';
import { modalOpened } from '../../../app/ui';
import { Button } from '../../../components/button';

/** "Message" on another member's profile: the message modal, to them (a visitor is asked to log in first). */
export function MessageButton({ userId, name }: { userId: string; name: string }) {
  const dispatch = useAppDispatch();
  return (
    <Button onClick={() => dispatch(modalOpened({ name: 'message', messageMode: 'create', receiverId: userId, receiverName: name }))}>Message</Button>
  );
}
