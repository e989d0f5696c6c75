import { useState } from 'react';
import Button from 'antd/es/button';
import {
  useDeletePieceAsAdminMutation,
  useHidePieceMutation,
  useRestorePieceMutation,
  useTrendContentMutation,
  useUnfeatureContentMutation,
} from '../../../api/generated/endpoints';
import { ResponsiveModal, WarningTitle } from '../../../components/modal';
import { notify } from '../../../components/notify';

/** What an admin may do to a piece: each is one admin call, which the audit log records. */
export type PieceAction = 'repost' | 'unfeature' | 'hide' | 'restore' | 'delete';

export const PIECE_ACTION_LABELS: Record<PieceAction, string> = {
  repost: 'Re-post',
  unfeature: 'Remove from the pages',
  hide: 'Hide',
  restore: 'Restore',
  delete: 'Delete',
};

export const DELETE_PIECE_WARNING = 'The listing fee is not refunded.';

export interface ActedPiece {
  id: string;
  title: string;
}

/** Where a piece stands, as far as the actions offered go. */
export interface PieceFacts {
  featured: boolean;
  /** Held off the lists or taken down: Restore instead of Hide. */
  hidden: boolean;
  /** The admin may delete pieces (ADMIN_REMOVE_EMAILS); unknown (undefined) offers Delete and lets the server decide. */
  canDelete?: boolean;
}

/** The actions that apply to a piece, in menu order. */
export function actionsFor({ featured, hidden, canDelete }: PieceFacts): PieceAction[] {
  return [
    'repost',
    ...(featured ? (['unfeature'] as const) : []),
    hidden ? ('restore' as const) : ('hide' as const),
    ...(canDelete === false ? [] : (['delete'] as const)),
  ];
}

/**
 * The admin's actions on pieces: each sends its call and toasts the server's message (a failure's message is shown by
 * the HTTP client). Delete asks first, in `confirm`, which the caller renders. `onDeleted` follows a deletion.
 */
export function usePieceActions(onDeleted?: (piece: ActedPiece) => void) {
  const [trend, trending] = useTrendContentMutation();
  const [unfeature, unfeaturing] = useUnfeatureContentMutation();
  const [hide, hiding] = useHidePieceMutation();
  const [restore, restoring] = useRestorePieceMutation();
  const [remove, removal] = useDeletePieceAsAdminMutation();
  const [deleting, setDeleting] = useState<ActedPiece | null>(null);
  const calls = { repost: trend, unfeature, hide, restore } as const;

  const run = async (action: PieceAction, piece: ActedPiece) => {
    if (action === 'delete') {
      setDeleting(piece);
      return;
    }
    try {
      const { message } = await calls[action]({ body: { contentId: piece.id } }).unwrap();
      notify('success', message);
    } catch {
      // The HTTP client has shown the server's message.
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      const { message } = await remove({ body: { contentId: deleting.id } }).unwrap();
      notify('success', message);
      onDeleted?.(deleting);
      setDeleting(null);
    } catch {
      // The HTTP client has shown the server's message; the question stays open.
    }
  };

  const confirm = (
    <ResponsiveModal
      open={Boolean(deleting)}
      onCancel={removal.isLoading ? undefined : () => setDeleting(null)}
      title={<WarningTitle className="kn-admin__delete-title">Delete this piece?</WarningTitle>}
      width={500}
      centered
      rootClassName="kn-admin-delete-modal"
      footer={
        <div className="kn-admin__delete-buttons">
          <Button onClick={() => setDeleting(null)} disabled={removal.isLoading}>
            Keep it
          </Button>
          <Button danger type="primary" loading={removal.isLoading} onClick={() => void confirmDelete()}>
            Delete
          </Button>
        </div>
      }
    >
      <p>
        “{deleting?.title}” will be deleted from Knack with its files, for every member. {DELETE_PIECE_WARNING}
      </p>
    </ResponsiveModal>
  );

  return { run, confirm, busy: trending.isLoading || unfeaturing.isLoading || hiding.isLoading || restoring.isLoading || removal.isLoading };
}
