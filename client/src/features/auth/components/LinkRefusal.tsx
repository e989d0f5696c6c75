import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import { useAppDispatch } from '../../../lib/storeHooks';
import { modalOpened } from '../../../lib/ui';

/**
 * The server's refusal of a form opened from a mailed link (a password reset, an artist-page registration), with
 * "New link": the forgot-password form, which mails whichever link the address needs.
 */
export function LinkRefusal({ message }: { message: string }) {
  const dispatch = useAppDispatch();
  return (
    <Alert
      className="kn-auth__alert"
      type="error"
      showIcon
      title={message}
      action={
        <Button size="small" type="link" onClick={() => dispatch(modalOpened('forgot-password'))}>
          New link
        </Button>
      }
    />
  );
}
