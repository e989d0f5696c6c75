import { useState } from 'react';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import Skeleton from 'antd/es/skeleton';
import FlagOutlined from '@ant-design/icons/es/icons/FlagOutlined';
import type { CachedError } from '../../../api/cache';
import { useGetOpenFlagsQuery, useGetPieceFlagsQuery, useResolveFlagsMutation } from '../../../api/generated/endpoints';
import type { GetOpenFlagsResult } from '../../../api/generated/operations';
import { PageHead } from '../../../components/PageHead';
import { ResponsiveModal, WarningTitle } from '../../../components/modal';
import { notify } from '../../../components/notify';
import { displayUsername } from '../../../lib/userNames';
import '../admin.css';

type FlaggedPiece = GetOpenFlagsResult['pieces'][number];

const moment = (at: string) => new Date(at).toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });

/** Who flagged one piece and why, read when the admin opens the list. */
function Flaggers({ contentId }: { contentId: string }) {
  const flags = useGetPieceFlagsQuery({ path: { id: contentId } });
  if (flags.error) return <p role="alert">{(flags.error as CachedError).message}</p>;
  if (!flags.data) return <Skeleton active title={false} paragraph={{ rows: 2 }} />;
  return (
    <ul className="kn-flags__who" aria-label="Who flagged it">
      {flags.data.flags.map((flag) => (
        <li key={`${flag.userId}:${flag.at}`}>
          <strong>{flag.username ? displayUsername(flag.username) : 'A deleted account'}</strong>
          <span>{flag.reason}</span>
          <time dateTime={flag.at}>{moment(flag.at)}</time>
          {flag.counts ? null : <span className="kn-flags__muted">does not count toward the hold</span>}
        </li>
      ))}
    </ul>
  );
}

/** One flagged piece: its counts and reasons, who flagged it (on demand), and the two decisions. */
function FlaggedCard({ piece, onTakeDown }: { piece: FlaggedPiece; onTakeDown: (piece: FlaggedPiece) => void }) {
  const [showWho, setShowWho] = useState(false);
  const [resolve, resolving] = useResolveFlagsMutation();
  const dismiss = async () => {
    try {
      const { message } = await resolve({ body: { contentId: piece.contentId, decision: 'dismiss' } }).unwrap();
      notify('success', message);
    } catch {
      // The HTTP client has shown the server's message.
    }
  };
  return (
    <li className="kn-flags__item" aria-label={piece.title}>
      <div className="kn-flags__head">
        <strong>{piece.title}</strong>
        {piece.held ? <span className="kn-flags__held">Held off the lists</span> : null}
      </div>
      <p className="kn-flags__muted">
        By {displayUsername(piece.ownerUsername)} · {piece.flagsCount} {piece.flagsCount === 1 ? 'flag' : 'flags'} ({piece.countedFlags} counted) · last{' '}
        <time dateTime={piece.lastFlaggedAt}>{moment(piece.lastFlaggedAt)}</time>
      </p>
      <ul className="kn-flags__reasons" aria-label="Reasons">
        {piece.reasons.map((reason) => (
          <li key={reason.reason}>
            {reason.reason} <span className="kn-flags__count">× {reason.count}</span>
          </li>
        ))}
      </ul>
      <div className="kn-flags__actions">
        <Button onClick={() => setShowWho((shown) => !shown)} aria-expanded={showWho}>
          {showWho ? 'Hide who flagged' : 'Who flagged'}
        </Button>
        <Button loading={resolving.isLoading} onClick={() => void dismiss()}>
          Dismiss
        </Button>
        <Button danger onClick={() => onTakeDown(piece)}>
          Take down
        </Button>
      </div>
      {showWho ? <Flaggers contentId={piece.contentId} /> : null}
    </li>
  );
}

/** Asks before taking a piece down, with a note for its owner's mail. */
function TakeDownModal({ piece, onClose }: { piece: FlaggedPiece | null; onClose: () => void }) {
  const [note, setNote] = useState('');
  const [resolve, resolving] = useResolveFlagsMutation();
  const takeDown = async () => {
    if (!piece) return;
    try {
      const { message } = await resolve({ body: { contentId: piece.contentId, decision: 'hide', note: note.trim() || undefined } }).unwrap();
      notify('success', message);
      setNote('');
      onClose();
    } catch {
      // The HTTP client has shown the server's message; the modal stays open to try again.
    }
  };
  return (
    <ResponsiveModal
      open={Boolean(piece)}
      onCancel={resolving.isLoading ? undefined : onClose}
      title={<WarningTitle className="kn-flags__warning">Take this piece down?</WarningTitle>}
      width={520}
      centered
      footer={
        <div className="kn-flags__modal-buttons">
          <Button onClick={onClose} disabled={resolving.isLoading}>
            Keep it up
          </Button>
          <Button danger type="primary" loading={resolving.isLoading} onClick={() => void takeDown()}>
            Take down
          </Button>
        </div>
      }
    >
      <p>
        “{piece?.title}” will be seen only by its owner and admins. Its owner is mailed the reasons members gave, with your note. The listing fee is not
        refunded.
      </p>
      <label className="kn-flags__note">
        <span>Note to the owner (optional)</span>
        <Input.TextArea aria-label="Note to the owner" maxLength={1000} rows={3} value={note} onChange={(event) => setNote(event.target.value)} />
      </label>
    </ResponsiveModal>
  );
}

/**
 * The flag queue, for admins: the pieces with open flags, the most flagged first, each with its reasons and counts,
 * who flagged it, and the decision: dismiss (the piece is listed again; its owner is told when the flags had held
 * it), or take it down (its owner is mailed why).
 */
export default function AdminFlagsPage() {
  const queue = useGetOpenFlagsQuery();
  const [takingDown, setTakingDown] = useState<FlaggedPiece | null>(null);
  return (
    <div className="kn-admin kn-flags">
      <PageHead
        icon={<FlagOutlined aria-hidden />}
        title="Flags"
        sub="Pieces members flagged, the most flagged first. A piece held by five counted flags is off the public lists until you decide."
      />
      {queue.error ? (
        <p role="alert">
          {(queue.error as CachedError).message}{' '}
          <button type="button" className="kn-retry" onClick={() => void queue.refetch()}>
            Try again
          </button>
        </p>
      ) : !queue.data ? (
        <Skeleton active paragraph={{ rows: 4 }} />
      ) : queue.data.pieces.length ? (
        <ul className="kn-flags__list">
          {queue.data.pieces.map((piece) => (
            <FlaggedCard key={piece.contentId} piece={piece} onTakeDown={setTakingDown} />
          ))}
        </ul>
      ) : (
        <p className="kn-flags__muted">No open flags. Flagged pieces show here.</p>
      )}
      <TakeDownModal piece={takingDown} onClose={() => setTakingDown(null)} />
    </div>
  );
}
