import { useEffect, useMemo } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Progress from 'antd/es/progress';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { selectUser } from '../../auth';
import { selectModalProps } from '../../../lib/ui';
import { allowedMainTags, completion, FORM_SPECS, isValidEmail, UPLOAD_MESSAGES } from '../upload.rules';
import { selectUpload } from '../upload.selectors';
import { fileChosen, fileRemoved, top50StepChanged, uploadCancelled, uploadSubmitted } from '../upload.slice';
import type { UploadFormKind, UploadValues } from '../upload.types';
import { clearSubTagOnNewMainTag, ContentFields } from './ContentFields';

/** Form fields of a content form, plus the stored files' paths (kept in step with the store for the rules). */
type FormValues = UploadValues & { photoPath?: string; audioPath?: string };

const FIELD_OF: Record<string, keyof FormValues> = {
  title: 'title',
  description: 'description',
  tags: 'mainTag',
  subTag: 'subTag',
  photoPath: 'photoPath',
  audioPath: 'audioPath',
  email: 'email',
};

/**
 * The content form shared by the three upload modals: title, description, the main tag
 * and a sub-tag, the picture, the song when the tag is Music, and the Top 50 email. Files are sent as soon as
 * they are chosen; every input is disabled while something is sent. The completion bar uses the form's
 * weights. The Top 50 form has a second step that confirms the email and saves.
 */
export function UploadForm({ kind }: { kind: UploadFormKind }) {
  const dispatch = useAppDispatch();
  const state = useAppSelector(selectUpload);
  const user = useAppSelector(selectUser);
  const props = useAppSelector(selectModalProps);
  const spec = FORM_SPECS[kind];
  const mains = allowedMainTags(kind, user?.userType);
  const [form] = Form.useForm<FormValues>();
  const values = (Form.useWatch([], { form, preserve: true }) ?? {}) as Partial<FormValues>;
  const busy = state.sending !== null;
  const saving = state.sending === 'save';
  const step = spec.steps === 2 ? state.step : 1;

  const percent = completion(kind, { values, hasPhoto: Boolean(state.photo.file), hasAudio: Boolean(state.audio.file) });

  // The server's field errors from a failed save, under their fields.
  useEffect(() => {
    if (state.status !== 'failed' || !state.errors.length) return;
    const fields = state.errors
      .map((error) => ({ name: FIELD_OF[error.path.split(/[./]/).filter(Boolean).pop() ?? ''], errors: [error.message] }))
      .filter((field): field is { name: keyof FormValues; errors: string[] } => Boolean(field.name));
    if (fields.length) form.setFields(fields);
  }, [form, state.status, state.errors]);

  const initialValues = useMemo<Partial<FormValues>>(
    () => ({ title: '', description: '', mainTag: mains.length === 1 ? mains[0] : undefined, subTag: undefined, email: '' }),
    [mains],
  );

  const submit = (all: FormValues) => {
    if (spec.steps === 2 && step === 1) {
      dispatch(top50StepChanged(2));
      return;
    }
    const { title, description, mainTag: main, subTag, email } = all;
    dispatch(uploadSubmitted({ title, description, mainTag: main, subTag, ...(spec.email ? { email } : {}) }));
  };

  const title =
    kind === 'top50'
      ? `Upload music to ${props.artistName ? `${props.artistName}'s` : 'the'} Top 50`
      : kind === 'artist'
        ? `Upload to ${props.artistName ? `${props.artistName}'s` : 'your'} artist page`
        : 'Upload your work';
  const subtitle =
    kind === 'top50'
      ? 'Enter a song for the Top 50 music chart. We confirm entries by email.'
      : kind === 'artist'
        ? 'A new song on the artist page. The page reloads once it is saved.'
        : 'Share a song, a piece of art or a photo. Every play or view can earn knack.';

  return (
    <Form<FormValues>
      form={form}
      layout="vertical"
      requiredMark={false}
      disabled={busy}
      initialValues={initialValues}
      validateTrigger={['onBlur', 'onChange']}
      onValuesChange={(changed: Partial<FormValues>) => clearSubTagOnNewMainTag(form, changed)}
      onFinish={() => submit(form.getFieldsValue(true) as FormValues)}
      className={`kn-upload kn-upload--${kind}`}
      aria-labelledby="kn-upload-title"
    >
      <header className="kn-upload__head">
        <div className="kn-upload__titlebar">
          <h2 className="kn-upload__title" id="kn-upload-title">
            {title}
          </h2>
          <span className="kn-upload__mode">
            {spec.steps === 2 ? `Step ${step} of 2 · ${step === 1 ? 'Details' : 'Confirm your email'}` : kind === 'artist' ? 'Artist page' : 'Classic'}
          </span>
        </div>
        <p className="kn-upload__subtitle">{subtitle}</p>
      </header>

      <div className="kn-upload__body">
        <ContentFields
          kind={kind}
          photo={state.photo}
          audio={state.audio}
          busy={busy}
          onFile={(slot, file) => dispatch(fileChosen({ slot, file }))}
          onRemove={(slot) => dispatch(fileRemoved(slot))}
          onCancel={() => dispatch(uploadCancelled())}
          hidden={step !== 1}
          besideTitle={
            spec.email ? (
              <Form.Item
                name="email"
                label="Email"
                validateTrigger="onBlur"
                rules={[
                  {
                    validator: (_rule, value?: string) =>
                      isValidEmail(value) ? Promise.resolve() : Promise.reject(new Error(UPLOAD_MESSAGES.emailMustBeValid)),
                  },
                ]}
              >
                <Input inputMode="email" autoComplete="email" placeholder="you@example.com" />
              </Form.Item>
            ) : undefined
          }
        />

        {step === 2 ? (
          <div className="kn-upload__confirm">
            <h3 className="kn-upload__confirm-title">Is this your email?</h3>
            <p className="kn-upload__confirm-email">{values.email}</p>
            {user ? (
              <p className="kn-upload__confirm-text">
                We send the Top 50 confirmation for <strong>{values.title}</strong> to this address. Saving enters the song in the chart.
              </p>
            ) : (
              <p className="kn-upload__confirm-text">
                We email a link to this address. <strong>{values.title}</strong> joins the chart once you open it and choose a username and a password.
              </p>
            )}
          </div>
        ) : null}

        {state.status === 'failed' && state.sending === null && state.message && !state.photo.error && !state.audio.error ? (
          <Alert className="kn-upload__alert" type="error" showIcon title={state.message} />
        ) : null}
      </div>

      <footer className={step === 2 ? 'kn-upload__foot kn-upload__foot--two' : 'kn-upload__foot'}>
        <div className="kn-upload__completion">
          <span className="kn-upload__completion-label">Form {percent}% complete</span>
          <Progress percent={percent} showInfo={false} size="small" aria-label="Form completion" />
        </div>
        <div className="kn-upload__actions">
          {step === 2 ? (
            <Button size="large" onClick={() => dispatch(top50StepChanged(1))} disabled={busy}>
              Back
            </Button>
          ) : null}
          <Button type="primary" size="large" htmlType="submit" loading={saving} disabled={busy && !saving}>
            {saving ? 'Saving…' : step === 1 && spec.steps === 2 ? 'Next' : step === 2 ? 'Confirm and save' : 'Upload'}
          </Button>
        </div>
      </footer>
    </Form>
  );
}
