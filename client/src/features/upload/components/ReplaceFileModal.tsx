import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Spin from 'antd/es/spin';
import CustomerServiceOutlined from '@ant-design/icons/es/icons/CustomerServiceOutlined';
import { useGetContentByIdQuery, useGetContentVersionsQuery, useRestoreContentVersionMutation } from '../../../api/generated/endpoints';
import type { CachedError } from '../../../api/cache';
import { mediaUrl } from '../../../api/mediaUrl';
import type { components } from '../../../../../generated/openapi';
import { HostedModal } from '../../../components/modal';
import { notify } from '../../../components/notify';
import { pieceUpdated } from '../../../lib/contentEvents';
import type { Content } from '../../../lib/content';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { selectModalProps } from '../../../lib/ui';
import { formatBytes, formatDuration } from '../upload.rules';
import { selectReplaceTransfer } from '../upload.selectors';
import { replaceCancelled, replaceFileChosen } from '../upload.slice';
import type { PieceFileKind, ReplaceState, SlotState, StoredFile } from '../upload.types';
import { FileField } from './FileField';
import './upload.css';
import './replace-file.css';

type ContentVersion = components['schemas']['ContentVersion'];

/** What each file of a piece is called: a song has its song and its cover, art and photos their picture. */
function fileLabel(piece: Pick<Content, 'isAudio'>, kind: PieceFileKind): string {
  if (kind === 'audio') return 'Song';
  return piece.isAudio ? 'Cover' : 'Picture';
}

/** The piece's files, in the order the modal offers them. */
const kindsOf = (piece: Pick<Content, 'isAudio'>): PieceFileKind[] => (piece.isAudio ? ['audio', 'image'] : ['image']);

/** The piece's file of `kind` as the file field shows a stored file. */
function currentFile(piece: Content, kind: PieceFileKind): StoredFile {
  if (kind === 'audio') {
    return {
      path: piece.filePath,
      name: piece.fileName,
      size: piece.fileSize,
      mimeType: piece.fileType,
      url: mediaUrl(piece.filePath),
      previewUrl: '',
      duration: piece.duration,
      processing: piece.processing === 'processing',
    };
  }
  return {
    path: piece.coverPath ?? piece.filePath,
    name: piece.isAudio ? 'cover' : piece.fileName,
    size: piece.isAudio ? 0 : piece.fileSize,
    mimeType: piece.isAudio ? '' : piece.fileType,
    url: mediaUrl(piece.coverPath ?? piece.filePath),
    previewUrl: mediaUrl(piece.mthumbPath),
    processing: false,
  };
}

/** The field's state: the transfer when it is this piece's file of `kind` and not finished well, else the piece's file now. */
function slotOf(piece: Content, kind: PieceFileKind, transfer: ReplaceState): SlotState {
  const mine = transfer.contentId === piece.id && transfer.kind === kind;
  if (mine && (transfer.status === 'uploading' || transfer.status === 'failed')) return transfer;
  return { status: 'idle', progress: 0, pending: null, file: currentFile(piece, kind), error: null };
}

const day = (at: string) => new Date(at).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });

/** One earlier file: what it was, when it was replaced, until when it can come back, and Restore. */
function VersionRow({
  piece,
  version,
  restoring,
  disabled,
  onRestore,
}: {
  piece: Content;
  version: ContentVersion;
  restoring: boolean;
  disabled: boolean;
  onRestore: () => void;
}) {
  const label = fileLabel(piece, version.kind);
  const facts = [formatBytes(version.size), version.kind === 'audio' ? formatDuration(version.duration) : ''].filter(Boolean).join(' · ');
  return (
    <li className="kn-replace__version">
      {version.previewUrl ? (
        <img className="kn-replace__thumb" src={mediaUrl(version.previewUrl)} alt="" width={56} height={56} />
      ) : (
        <span className="kn-replace__thumb kn-replace__thumb--audio" aria-hidden="true">
          <CustomerServiceOutlined />
        </span>
      )}
      <span className="kn-replace__facts">
        <span className="kn-replace__name">
          <strong>{label}</strong>{' '}
          <a href={mediaUrl(version.url)} target="_blank" rel="noreferrer" title={version.fileName}>
            {version.fileName}
          </a>
        </span>
        <span className="kn-replace__meta">{facts}</span>
        <span className="kn-replace__meta">
          Replaced {day(version.replacedAt)} · restorable until {day(version.restorableUntil)}
        </span>
      </span>
      <Button
        className="kn-replace__restore"
        onClick={onRestore}
        loading={restoring}
        disabled={disabled && !restoring}
        aria-label={`Restore ${label.toLowerCase()} ${version.fileName}`}
      >
        Restore
      </Button>
    </li>
  );
}

/**
 * Replace file, from the owner's menu on a piece: a new song, cover or picture, chosen with the upload form's file
 * field and checks and sent at once with its progress (the upload flows); the piece keeps its link, plays, comments,
 * knacks and earnings. Below, the files it had (kept 30 days), each with Restore. Admins see it on any piece, as the
 * server lets them.
 */
export default function ReplaceFileModal({ open }: { name: 'replace-file'; open: boolean }) {
  const dispatch = useAppDispatch();
  const { contentId = '' } = useAppSelector(selectModalProps);
  const transfer = useAppSelector(selectReplaceTransfer);
  const pieceRead = useGetContentByIdQuery(
    { path: { id: contentId }, quiet: 'the modal shows the failure in place of the files' },
    { skip: !open || !contentId },
  );
  const versionsRead = useGetContentVersionsQuery(
    { path: { id: contentId }, quiet: 'the modal shows the failure in place of the versions' },
    { skip: !open || !contentId },
  );
  const [restore, restoring] = useRestoreContentVersionMutation();
  // Open, the piece as the server has it now; closing, the last one shown.
  const piece = (open ? pieceRead.currentData : pieceRead.data)?.content;
  const versions = versionsRead.data?.versions ?? [];
  const sending = transfer.status === 'uploading';
  const busy = sending || restoring.isLoading;
  const failure = pieceRead.isError ? (pieceRead.error as CachedError).message : null;

  const onRestore = async (version: ContentVersion) => {
    const { content, message } = await restore({ path: { id: contentId, versionId: version.id } }).unwrap();
    dispatch(pieceUpdated(content));
    notify('success', message);
  };

  return (
    <HostedModal open={open} width={640} rootClassName="kn-upload-modal kn-replace-modal" title="Replace file">
      {failure ? (
        <Alert type="error" showIcon title={failure} />
      ) : !piece ? (
        <div className="kn-replace__loading">
          <Spin aria-label="Loading the piece’s files" />
        </div>
      ) : (
        <div className="kn-replace" aria-busy={busy}>
          <p className="kn-replace__intro">
            A new file for “<strong>{piece.title}</strong>”. It keeps its link, plays, comments, knacks and earnings; the file it replaces is kept 30 days
            below.
          </p>
          <div className={`kn-replace__files kn-replace__files--${piece.isAudio ? 'song' : 'picture'}`}>
            {kindsOf(piece).map((kind) => {
              const label = fileLabel(piece, kind);
              const state = slotOf(piece, kind, transfer);
              const fieldId = `kn-replace-${kind}`;
              return (
                <div key={kind} className={`kn-replace__file kn-replace__file--${kind}`}>
                  <label className="kn-replace__label" htmlFor={fieldId}>
                    {label}
                  </label>
                  <FileField
                    id={fieldId}
                    kind={kind}
                    label={label}
                    state={state}
                    disabled={busy}
                    onFile={(file) => dispatch(replaceFileChosen({ contentId: piece.id, kind, file }))}
                    onRemove={() => dispatch(replaceCancelled())}
                    onCancel={() => dispatch(replaceCancelled())}
                  />
                  {state.error ? (
                    <p className="kn-replace__error" role="alert">
                      {state.error}
                    </p>
                  ) : null}
                </div>
              );
            })}
          </div>
          <section className="kn-replace__history" aria-labelledby="kn-replace-versions">
            <h3 id="kn-replace-versions" className="kn-replace__heading">
              Versions
            </h3>
            {versionsRead.isError ? (
              <Alert type="error" showIcon title={(versionsRead.error as CachedError).message} />
            ) : versions.length ? (
              <ul className="kn-card-list kn-replace__versions">
                {versions.map((version) => (
                  <VersionRow
                    key={version.id}
                    piece={piece}
                    version={version}
                    restoring={restoring.isLoading && restoring.originalArgs?.path.versionId === version.id}
                    disabled={busy}
                    onRestore={() => void onRestore(version).catch(() => undefined)}
                  />
                ))}
              </ul>
            ) : (
              <p className="kn-replace__empty">{versionsRead.isLoading ? 'Loading…' : 'No earlier files. A file you replace is kept here for 30 days.'}</p>
            )}
          </section>
        </div>
      )}
    </HostedModal>
  );
}
