import { useEffect, useRef, useState } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Progress from 'antd/es/progress';
import PictureOutlined from '@ant-design/icons/es/icons/PictureOutlined';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { mediaUrl } from '../../../api/mediaUrl';
import { selectUser } from '../../auth';
import { modalClosed } from '../../../lib/ui';
import { HostedModal } from '../../../components/modal';
import { cropFileName, cropToBlob, HEADER_ASPECT, HEADER_RATIO, outputSize } from '../crop';
import { ACCEPT, fileProblem, UPLOAD_MESSAGES } from '../upload.rules';
import { selectHeaderTransfer } from '../upload.selectors';
import { headerFileChosen, headerSaveRequested } from '../upload.slice';
import { CropPreview, ImageCropper } from './ImageCropper';
import { useCropSource, type ImageLoad } from './useCropSource';
import './upload.css';

/**
 * The header image dialog: upload a picture, then the editor crops it at 1119:305; Save
 * uploads the crop and applies both (headerImage: the original, headerImageEdited: the crop). The editor's
 * loading is idle → loading → done: saving before it is done says 'Please wait to load image.', saving with
 * no picture 'Please upload image first.'.
 */
export default function HeaderImageModal({ open }: { name: 'header-image'; open: boolean }) {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);
  const header = useAppSelector(selectHeaderTransfer);
  const picture = useCropSource(HEADER_RATIO);
  const [problem, setProblem] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const sendingOriginal = header.sending === 'original';
  const saving = header.sending === 'crop';

  // The editor is ready once the picture is decoded here and its original is stored.
  const load: ImageLoad =
    picture.load === 'idle' ? 'idle' : picture.load === 'failed' ? 'failed' : picture.load === 'loading' || sendingOriginal ? 'loading' : 'done';

  // The original was refused (too big, not an image): the editor lets go of it; the message stays.
  const refused = header.status === 'failed' && !header.original && header.sending === null;
  const { clear } = picture;
  useEffect(() => {
    if (refused) clear();
  }, [refused, clear]);

  const choose = (file: File | undefined) => {
    if (!file) return;
    setProblem(null);
    dispatch(headerFileChosen({ file }));
    if (!fileProblem('image', file)) picture.choose(file);
    else picture.clear();
  };

  const save = async () => {
    if (!picture.source || (!header.original && !sendingOriginal)) return setProblem(UPLOAD_MESSAGES.uploadImageFirst);
    if (load !== 'done' || !picture.image || !picture.crop) return setProblem(UPLOAD_MESSAGES.waitForImage);
    setProblem(null);
    try {
      const blob = await cropToBlob(picture.image, picture.crop, outputSize(picture.crop, HEADER_RATIO), picture.source.type);
      dispatch(headerSaveRequested({ file: new File([blob], cropFileName('header', blob), { type: blob.type }) }));
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  };

  const message = problem ?? (header.status === 'failed' ? header.message : null);
  const current = user?.headerImage ? mediaUrl(user.headerImage) : null;

  return (
    <HostedModal open={open} width={768} rootClassName="kn-upload-modal kn-header-modal" title="Header image">
      <div className="kn-media-dialog">
        <p className="kn-media-dialog__lead">
          The wide picture at the top of your profile, cropped to {HEADER_ASPECT.width} × {HEADER_ASPECT.height}.
        </p>
        <input
          ref={input}
          className="kn-file__input"
          type="file"
          accept={ACCEPT.image}
          aria-label="Upload a header image"
          disabled={saving}
          onChange={(event) => {
            choose(event.target.files?.[0]);
            event.target.value = '';
          }}
        />
        {picture.source ? (
          <div className="kn-header-editor" aria-busy={load === 'loading'}>
            <ImageCropper
              src={picture.source.url}
              ratio={HEADER_RATIO}
              crop={picture.crop}
              onCropChange={picture.setCrop}
              onLoad={picture.onLoad}
              onError={picture.onError}
              disabled={saving}
              label="Header crop area"
            />
            {load === 'loading' ? <p className="kn-media-dialog__hint">Loading the image…</p> : null}
            <div className="kn-header-editor__preview-row">
              <span className="kn-media-dialog__hint">Preview</span>
              <CropPreview className="kn-header-editor__preview" src={picture.source.url} crop={picture.crop} natural={picture.natural} />
            </div>
          </div>
        ) : (
          <button type="button" className="kn-media-dialog__drop kn-media-dialog__drop--wide" onClick={() => input.current?.click()}>
            {current ? <img className="kn-media-dialog__current" src={current} alt="Your header image" /> : null}
            <span className="kn-media-dialog__drop-text">
              <PictureOutlined className="kn-file__icon" aria-hidden />
              <span className="kn-file__cta">Upload a header image</span>
              <span className="kn-file__hint">PNG or JPEG, up to 20 MB. Wide pictures work best.</span>
            </span>
          </button>
        )}
        {header.status !== 'idle' && header.progress > 0 ? (
          <div className="kn-media-dialog__progress">
            <span className="kn-media-dialog__hint">
              {saving
                ? 'Uploading the crop…'
                : sendingOriginal
                  ? header.progress >= 1
                    ? 'Processing the image…'
                    : 'Uploading the image…'
                  : header.status === 'failed'
                    ? 'The upload failed.'
                    : 'Image uploaded. Move or resize the frame, then save.'}
            </span>
            <Progress
              percent={Math.round(header.progress * 100)}
              size="small"
              status={header.status === 'uploading' ? 'active' : header.status === 'failed' ? 'exception' : 'success'}
              aria-label={saving ? 'Header crop upload' : 'Header image upload'}
            />
          </div>
        ) : null}
        {message ? <Alert className="kn-media-dialog__alert" type="error" showIcon title={message} role="alert" /> : null}
        <div className="kn-media-dialog__actions">
          {picture.source ? (
            <Button onClick={() => input.current?.click()} disabled={saving}>
              Choose another
            </Button>
          ) : null}
          <span className="kn-media-dialog__spacer" />
          <Button onClick={() => dispatch(modalClosed())}>Cancel</Button>
          <Button type="primary" onClick={() => void save()} loading={saving}>
            Save and apply
          </Button>
        </div>
      </div>
    </HostedModal>
  );
}
