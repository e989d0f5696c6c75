import { useEffect, type ReactNode } from 'react';
import Form, { type FormInstance } from 'antd/es/form';
import Input from 'antd/es/input';
import { useAppSelector } from '../../../lib/storeHooks';
import { selectUser } from '../../auth';
import { allowedMainTags, MUSIC_ONLY_USER_TYPE, UPLOAD_MESSAGES } from '../upload.rules';
import type { FileSlot, SlotState, UploadFormKind } from '../upload.types';
import { FileField } from './FileField';
import { TagFields } from './TagFields';
import './upload.css';

export interface ContentFieldsProps {
  /** Which form's rules apply (the main tags offered, the prices shown). */
  kind: UploadFormKind;
  photo: SlotState;
  audio: SlotState;
  /** Something is being sent: the file fields are disabled. */
  busy: boolean;
  onFile: (slot: FileSlot, file: File) => void;
  onRemove: (slot: FileSlot) => void;
  onCancel: () => void;
  /** A field shown beside the title (the Top 50 email). */
  besideTitle?: ReactNode;
  hidden?: boolean;
}

const photoLabel = (mainTag?: string) => (mainTag === 'Art' ? 'Artwork' : mainTag === 'Photos' ? 'Photo' : 'Cover photo');

/** The main tag the form starts with: the only one allowed, when there is one. */
export function useDefaultMainTag(kind: UploadFormKind): string | undefined {
  const user = useAppSelector(selectUser);
  const mains = allowedMainTags(kind, user?.userType);
  return mains.length === 1 ? mains[0] : undefined;
}

/** A new main tag has its own sub-tags: the form's `onValuesChange` clears the sub-tag chosen under the last one. */
export function clearSubTagOnNewMainTag(form: FormInstance, changed: Record<string, unknown>) {
  if ('mainTag' in changed) form.setFieldValue('subTag', undefined);
}

/**
 * A piece's details, inside an antd Form: the picture, title, description, the main tag and a sub-tag, and the song
 * when the tag is Music, with the upload messages. Files are sent as soon as they are chosen (the upload flows);
 * their stored paths are form values (`photoPath`, `audioPath`) so the required rules see them. Shared by the upload
 * modals and NFT mode's first step.
 */
export function ContentFields({ kind, photo, audio, busy, onFile, onRemove, onCancel, besideTitle, hidden }: ContentFieldsProps) {
  const form = Form.useFormInstance();
  const user = useAppSelector(selectUser);
  const mains = allowedMainTags(kind, user?.userType);
  const watched = Form.useWatch<string | undefined>('mainTag', { form, preserve: true });
  const mainTag = watched ?? (mains.length === 1 ? mains[0] : undefined);
  const wantsAudio = mainTag === 'Music';

  const photoPath = photo.file?.path;
  const audioPath = audio.file?.path;
  useEffect(() => {
    form.setFieldValue('photoPath', photoPath);
    if (photoPath) form.setFields([{ name: 'photoPath', errors: [] }]);
  }, [form, photoPath]);
  useEffect(() => {
    form.setFieldValue('audioPath', audioPath);
    if (audioPath) form.setFields([{ name: 'audioPath', errors: [] }]);
  }, [form, audioPath]);

  const fileProps = (slot: FileSlot) => ({
    state: slot === 'photo' ? photo : audio,
    disabled: busy,
    onFile: (file: File) => onFile(slot, file),
    onRemove: () => onRemove(slot),
    onCancel,
  });

  return (
    <div className="kn-upload__grid" hidden={hidden}>
      <div className="kn-upload__media">
        <Form.Item
          name="photoPath"
          label={photoLabel(mainTag)}
          rules={[{ required: true, message: UPLOAD_MESSAGES.photoRequired }]}
          validateStatus={photo.error ? 'error' : undefined}
          help={photo.error ?? undefined}
          validateTrigger={[]}
        >
          <FileField kind="image" label={photoLabel(mainTag)} {...fileProps('photo')} />
        </Form.Item>
      </div>
      <div className="kn-upload__fields">
        <div className={besideTitle ? 'kn-upload__pair' : undefined}>
          <Form.Item name="title" label="Title" rules={[{ required: true, whitespace: true, message: UPLOAD_MESSAGES.titleRequired }]}>
            <Input maxLength={200} placeholder="Give it a name" autoComplete="off" />
          </Form.Item>
          {besideTitle}
        </div>
        <Form.Item name="description" label="Description" rules={[{ required: true, whitespace: true, message: UPLOAD_MESSAGES.descriptionRequired }]}>
          <Input.TextArea maxLength={5000} autoSize={{ minRows: 2, maxRows: 4 }} placeholder="Tell people about it" />
        </Form.Item>
        <TagFields
          kind={kind}
          mains={mains}
          mainTag={mainTag}
          note={user?.userType === MUSIC_ONLY_USER_TYPE && kind === 'content' ? UPLOAD_MESSAGES.musicOnly : undefined}
        />
      </div>
      {wantsAudio ? (
        <Form.Item
          className="kn-upload__audio"
          name="audioPath"
          label="Audio"
          rules={[{ required: true, message: UPLOAD_MESSAGES.audioRequired }]}
          validateStatus={audio.error ? 'error' : undefined}
          help={audio.error ?? undefined}
          validateTrigger={[]}
        >
          <FileField kind="audio" label="Audio" {...fileProps('audio')} />
        </Form.Item>
      ) : null}
    </div>
  );
}
