import Button from 'antd/es/button';
import { useDeleteContentMutation } from '../../../api/generated/endpoints';
import { useAppDispatch } from '../../../lib/storeHooks';
import { notify } from '../../../components/notify';
import { ResponsiveModal, WarningTitle } from '../../../components/modal';
import { contentRemoved } from '../../content-detail';
import type { Content } from '../../../lib/content';

/** Removal warns that the listing fee is not refunded; the footer gives 3 days to decide. */
export const DELETE_WARNING = 'The listing fee is not refunded.';
export const DELETE_FOOTNOTE = 'You have 3 days to decide.';

export interface DeleteContentModalProps {
  /** The piece to remove; null: closed. */
  content: Content | null;
  onClose: () => void;
}

/**
 * The delete modal (owners only): asks before removing one's own piece, warning that the listing fee is
 * not refunded; on Remove it calls content/delete and toasts the server's message. The lists and counts that
 * showed the piece load again by themselves (the cache's invalidation).
 */
export function DeleteContentModal({ content, onClose }: DeleteContentModalProps) {
  const dispatch = useAppDispatch();
  const [removePiece, removal] = useDeleteContentMutation();
  const remove = async () => {
    if (!content) return;
    try {
      const { message } = await removePiece({ body: { contentId: content.id } }).unwrap();
      notify('success', message);
      dispatch(contentRemoved(content.id));
      onClose();
    } catch {
      // The HTTP client has shown the server's message; the modal stays open to try again.
    }
  };
  return (
    <ResponsiveModal
      open={Boolean(content)}
      onCancel={removal.isLoading ? undefined : onClose}
      title={<WarningTitle className="kn-delete__title">Remove this piece?</WarningTitle>}
      width={500}
      centered
      rootClassName="kn-delete-modal"
      footer={
        <div className="kn-delete__footer">
          <p className="kn-delete__footnote">{DELETE_FOOTNOTE}</p>
          <div className="kn-delete__buttons">
            <Button onClick={onClose} disabled={removal.isLoading}>
              Keep it
            </Button>
            <Button danger type="primary" loading={removal.isLoading} onClick={() => void remove()}>
              Remove
            </Button>
          </div>
        </div>
      }
    >
      <p className="kn-delete__text">“{content?.title}” will be taken off Knack with its files, and its link will stop working.</p>
      <p className="kn-delete__warning" role="alert">
        {DELETE_WARNING}
      </p>
    </ResponsiveModal>
  );
}
