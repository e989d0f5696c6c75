import FlagFilled from '@ant-design/icons/es/icons/FlagFilled';
import { useGetMyFlagQuery, useSetFlagMutation } from '../../../api/generated/endpoints';
import type { SetFlagArgs } from '../../../api/generated/operations';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { modalClosed, selectModalProps } from '../../../lib/ui';
import { ResponsiveModal } from '../../../components/modal';
import { notify } from '../../../components/notify';
import { selectUser } from '../../auth';
import './flags.css';

type Reason = NonNullable<SetFlagArgs['body']['reason']>;

/** The four reasons a member can give, in the order the modal offers them. */
export const FLAG_REASONS: Reason[] = [
  'Somebody unlawfully posted your content',
  'Wrong market for content genre',
  'You need to have a minimum balance of $10 to withdraw',
  'Inappropriate Content: Terms Of Services',
];

/**
 * The flag modal: the member's reason for flagging the piece. Choosing a reason flags it (or changes the reason);
 * choosing the chosen one again takes the flag back (the member's flag, read again after a change, shows it). The help
 * text says which flags count toward taking a piece off the lists, as the server decides it, so that a member whose
 * flag does not count is not misled.
 */
export default function FlagModal({ open }: { open: boolean }) {
  const dispatch = useAppDispatch();
  const { contentId = '' } = useAppSelector(selectModalProps);
  const user = useAppSelector(selectUser);
  const myFlag = useGetMyFlagQuery(
    { path: { id: contentId }, quiet: 'a flag that could not be read leaves every reason to choose from' },
    { skip: !open || !contentId },
  );
  const [setFlag, change] = useSetFlagMutation();
  const chosen = myFlag.currentData?.reason ?? null;
  const busy = myFlag.isFetching || change.isLoading;

  const choose = async (reason: Reason) => {
    if (!user || busy) return;
    try {
      const result = await setFlag({ body: { contentId, userId: user.id, reason: chosen === reason ? null : reason } }).unwrap();
      notify('success', result.message);
      if (result.reason) dispatch(modalClosed());
    } catch {
      // The one error toast has shown the server's message; the reason chosen before stays chosen.
    }
  };

  return (
    <ResponsiveModal open={open} onCancel={() => dispatch(modalClosed())} footer={null} width={500} title="Flag this piece">
      <p className="kn-flag__intro">Tell us what is wrong. Choose your reason again to take your flag back.</p>
      <p className="kn-flag__help">
        Our team reads every flag. Once 5 members have flagged a piece, it leaves Explore, search and the charts until we have reviewed it. A flag counts toward
        that when your account is activated, at least 3 days old, and you follow a member, have a piece on Knack or have knacked this piece. After our review,
        you can flag the piece again only if it changes.
      </p>
      <div className="kn-flag__reasons" role="group" aria-label="Reasons" aria-busy={busy}>
        {FLAG_REASONS.map((reason) => (
          <button
            key={reason}
            type="button"
            className={chosen === reason ? 'kn-flag__reason is-chosen' : 'kn-flag__reason'}
            aria-pressed={chosen === reason}
            disabled={busy}
            onClick={() => void choose(reason)}
          >
            <FlagFilled aria-hidden />
            <span>{reason}</span>
          </button>
        ))}
      </div>
    </ResponsiveModal>
  );
}
