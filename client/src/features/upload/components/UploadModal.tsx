import { HostedModal } from '../../../components/modal';
import { useAppSelector } from '../../../lib/storeHooks';
import { selectUpload } from '../upload.selectors';
import { UPLOAD_FORM_MODALS, type UploadModalName } from '../upload.slice';
import type { UploadFormKind } from '../upload.types';
import { UploadForm } from './UploadForm';
import './upload.css';

/** Sizes: upload content 700×540, Top 50 and artist 800×540; phones get the whole screen. */
const WIDTHS: Record<UploadFormKind, number> = { content: 700, top50: 800, artist: 800 };

const LABELS: Record<UploadFormKind, string> = { content: 'Upload content', top50: 'Upload music (Top 50)', artist: 'Upload to the artist page' };

/** The three content upload modals (one at a time), opened from the ui state by the modal host. */
export default function UploadModal({ name, open }: { name: UploadModalName; open: boolean }) {
  const { session } = useAppSelector(selectUpload);
  const kind = UPLOAD_FORM_MODALS[name];
  return (
    <HostedModal
      open={open}
      width={WIDTHS[kind]}
      rootClassName={`kn-upload-modal kn-upload-modal--${kind}`}
      title={LABELS[kind]}
      classNames={{ header: 'kn-visually-hidden' }}
    >
      {/* A new session is a fresh form: the form resets each time it opens. */}
      <UploadForm key={session} kind={kind} />
    </HostedModal>
  );
}
