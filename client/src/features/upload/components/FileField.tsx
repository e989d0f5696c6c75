import { useEffect, useRef, useState, type DragEvent } from 'react';
import Button from 'antd/es/button';
import Progress from 'antd/es/progress';
import CloseOutlined from '@ant-design/icons/es/icons/CloseOutlined';
import CustomerServiceOutlined from '@ant-design/icons/es/icons/CustomerServiceOutlined';
import PictureOutlined from '@ant-design/icons/es/icons/PictureOutlined';
import { ACCEPT, formatBytes, formatDuration, type FileKind } from '../upload.rules';
import type { SlotState } from '../upload.types';

export interface FileFieldProps {
  kind: FileKind;
  /** The field's name, for the progress bar's label ('Cover photo'). */
  label: string;
  state: SlotState;
  disabled?: boolean;
  onFile: (file: File) => void;
  onRemove: () => void;
  onCancel: () => void;
  /** Given by the form item, so its label names the file input. */
  id?: string;
}

/** An object URL for a local file, revoked when it changes or the field goes away. */
function useObjectUrl(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file || typeof URL.createObjectURL !== 'function') {
      setUrl(null);
      return;
    }
    const next = URL.createObjectURL(file);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [file]);
  return url;
}

/**
 * A file field of the upload forms: a drop zone with a file input. The file is sent as soon as it is chosen;
 * its byte progress shows under it. An image shows its preview; a song its name, size and duration
 * from the server's answer.
 */
export function FileField({ kind, label, state, disabled = false, onFile, onRemove, onCancel, id }: FileFieldProps) {
  const input = useRef<HTMLInputElement>(null);
  const [local, setLocal] = useState<File | null>(null);
  const [over, setOver] = useState(false);
  const localUrl = useObjectUrl(kind === 'image' ? local : null);
  const sending = state.status === 'uploading';

  // The local preview is only for the file in flight; the server's thumbnail replaces it.
  useEffect(() => {
    if (state.status !== 'uploading') setLocal(null);
  }, [state.status]);

  const take = (file: File | undefined) => {
    if (!file || disabled) return;
    setLocal(file);
    onFile(file);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    take(event.dataTransfer.files?.[0]);
  };

  const percent = Math.round(state.progress * 100);
  const showProgress = state.status === 'uploading' || state.status === 'done' || (state.status === 'failed' && state.progress > 0);
  const progressStatus = state.status === 'uploading' ? 'active' : state.status === 'done' ? 'success' : 'exception';
  const preview = kind === 'image' ? (state.file?.previewUrl ?? (sending ? localUrl : null)) : null;
  const name = state.file?.name ?? state.pending?.name;
  const size = state.file?.size ?? state.pending?.size;
  const hint = kind === 'image' ? 'PNG or JPEG, up to 20 MB' : 'MP3, WAV, OGG, FLAC, M4A or AAC, up to 100 MB';

  const facts = [
    size !== undefined ? formatBytes(size) : '',
    state.file ? formatDuration(state.file.duration) || (state.file.processing ? 'processing…' : '') : '',
  ]
    .filter(Boolean)
    .join(' · ');

  const progress = (
    <span className="kn-file__progress">
      <Progress percent={percent} size="small" status={progressStatus} aria-label={`${label} upload`} />
      {/* Every byte is sent; the server is still reading the file (thumbnails, duration, waveform). */}
      {sending && percent >= 100 ? <span className="kn-file__note">Processing…</span> : null}
      {sending ? (
        <Button type="link" size="small" className="kn-file__cancel" onClick={onCancel} disabled={false}>
          Cancel
        </Button>
      ) : state.file && !disabled ? (
        <Button type="text" size="small" icon={<CloseOutlined />} className="kn-file__remove" aria-label={`Remove ${label.toLowerCase()}`} onClick={onRemove} />
      ) : null}
    </span>
  );

  const fileInput = (
    <input
      ref={input}
      id={id}
      className="kn-file__input"
      type="file"
      accept={ACCEPT[kind]}
      disabled={disabled}
      onChange={(event) => {
        take(event.target.files?.[0]);
        event.target.value = ''; // the same file can be chosen again
      }}
    />
  );

  return (
    <div className={`kn-file kn-file--${kind}${over ? ' is-over' : ''}${disabled ? ' is-disabled' : ''}${state.error ? ' has-error' : ''}`}>
      {kind === 'image' ? (
        <label
          className={`kn-file__drop${preview ? ' has-preview' : ''}`}
          onDragOver={(event) => {
            event.preventDefault();
            if (!disabled) setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={onDrop}
        >
          {fileInput}
          {preview ? (
            <img className="kn-file__preview" src={preview} alt={state.file ? `${label}: ${state.file.name}` : ''} />
          ) : (
            <span className="kn-file__empty">
              <PictureOutlined className="kn-file__icon" aria-hidden />
              <span className="kn-file__cta">Choose a picture</span>
              <span className="kn-file__hint">or drop it here</span>
              <span className="kn-file__hint">{hint}</span>
            </span>
          )}
          {preview && !sending && !disabled ? <span className="kn-file__change">Change</span> : null}
        </label>
      ) : (
        <div
          className="kn-file__row"
          onDragOver={(event) => {
            event.preventDefault();
            if (!disabled) setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={onDrop}
        >
          <span className="kn-file__badge" aria-hidden="true">
            <CustomerServiceOutlined />
          </span>
          <span className="kn-file__meta">
            {name ? (
              <span className="kn-file__line">
                <span className="kn-file__name" title={name}>
                  {name}
                </span>
                <span className="kn-file__facts">{facts}</span>
              </span>
            ) : (
              <span className="kn-file__hint">{hint} · or drop it here</span>
            )}
            {showProgress ? progress : null}
          </span>
          {fileInput}
          <Button className="kn-file__pick" disabled={disabled} onClick={() => input.current?.click()}>
            {state.file ? 'Replace' : 'Choose audio'}
          </Button>
        </div>
      )}
      {kind === 'image' && showProgress ? progress : null}
    </div>
  );
}
