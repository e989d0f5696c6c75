import { useRef, useState } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Progress from 'antd/es/progress';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { mediaUrl } from '../../../api/mediaUrl';
import { initials } from '../../../lib/userNames';
import { selectUser } from '../../auth';
import { modalClosed } from '../../../lib/ui';
import { HostedModal } from '../../../components/modal';
import { cropFileName, cropToBlob, outputSize, SQUARE_RATIO } from '../crop';
import { ACCEPT, fileProblem, UPLOAD_MESSAGES } from '../upload.rules';
import { selectAvatarTransfer } from '../upload.selectors';
import { avatarSaveRequested } from '../upload.slice';
import { CropPreview, ImageCropper } from './ImageCropper';
import { useCropSource } from './useCropSource';
import './upload.css';

/** The profile photo is stored at most this wide (square). */
const PHOTO_SIZE = 512;

/**
 * The profile photo dialog: choose a picture, crop it square, save. The crop is made here
 * (canvas → PNG or JPEG), uploaded, then set as the photo; the side menu's avatar changes.
 */
export default function ProfilePhotoModal({ open }: { name: 'profile-photo'; open: boolean }) {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);
  const transfer = useAppSelector(selectAvatarTransfer);
  const picture = useCropSource(SQUARE_RATIO);
  const [problem, setProblem] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const busy = transfer.status === 'uploading';

  const choose = (file: File | undefined) => {
    if (!file) return;
    const wrong = fileProblem('image', file);
    setProblem(wrong);
    if (!wrong) picture.choose(file);
  };

  const save = async () => {
    if (!picture.source) return setProblem(UPLOAD_MESSAGES.selectPhoto);
    if (picture.load !== 'done' || !picture.image || !picture.crop) return setProblem(UPLOAD_MESSAGES.waitForImage);
    setProblem(null);
    try {
      const blob = await cropToBlob(picture.image, picture.crop, outputSize(picture.crop, SQUARE_RATIO, PHOTO_SIZE), picture.source.type);
      dispatch(avatarSaveRequested({ file: new File([blob], cropFileName('photo', blob), { type: blob.type }) }));
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  };

  const message = problem ?? (transfer.status === 'failed' ? transfer.message : null);
  const current = user?.image ? mediaUrl(user.image) : null;

  return (
    <HostedModal open={open} width={500} rootClassName="kn-upload-modal kn-photo-modal" title="Profile photo">
      <div className="kn-media-dialog">
        <input
          ref={input}
          className="kn-file__input"
          type="file"
          accept={ACCEPT.image}
          aria-label="Choose a photo"
          disabled={busy}
          onChange={(event) => {
            choose(event.target.files?.[0]);
            event.target.value = '';
          }}
        />
        {picture.source ? (
          <div className="kn-photo-editor">
            <ImageCropper
              src={picture.source.url}
              ratio={SQUARE_RATIO}
              crop={picture.crop}
              onCropChange={picture.setCrop}
              onLoad={picture.onLoad}
              onError={picture.onError}
              round
              disabled={busy}
              label="Photo crop area"
            />
            <div className="kn-photo-editor__side">
              <CropPreview className="kn-photo-editor__preview" src={picture.source.url} crop={picture.crop} natural={picture.natural} />
              <span className="kn-media-dialog__hint">Preview</span>
            </div>
          </div>
        ) : (
          <button type="button" className="kn-media-dialog__drop kn-media-dialog__drop--square" onClick={() => input.current?.click()} disabled={busy}>
            <span className="kn-media-dialog__avatar" aria-hidden="true">
              {current ? <img src={current} alt="" /> : user ? <span data-glyph={initials(user)} /> : null}
            </span>
            <span className="kn-file__cta">Choose a photo</span>
            <span className="kn-file__hint">PNG or JPEG, up to 20 MB. You can crop it next.</span>
          </button>
        )}
        {busy || transfer.status === 'done' ? (
          <Progress percent={Math.round(transfer.progress * 100)} size="small" status={busy ? 'active' : 'success'} aria-label="Photo upload" />
        ) : null}
        {message ? <Alert className="kn-media-dialog__alert" type="error" showIcon title={message} role="alert" /> : null}
        <div className="kn-media-dialog__actions">
          {picture.source ? (
            <Button onClick={() => input.current?.click()} disabled={busy}>
              Choose another
            </Button>
          ) : null}
          <span className="kn-media-dialog__spacer" />
          <Button onClick={() => dispatch(modalClosed())}>Cancel</Button>
          <Button type="primary" onClick={() => void save()} loading={busy}>
            Save
          </Button>
        </div>
      </div>
    </HostedModal>
  );
}
