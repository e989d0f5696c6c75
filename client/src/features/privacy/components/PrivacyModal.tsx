import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Radio from 'antd/es/radio';
import Spin from 'antd/es/spin';
import { useGetAllPlansQuery, useGetContentByIdQuery, useGetSubscriptionQuery, useUpdateContentSettingMutation } from '../../../api/generated/endpoints';
import type { CachedError } from '../../../api/cache';
import { MESSAGES } from '../../../../../generated/validation';
import { PATHS } from '../../../lib/constants';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { modalClosed, selectModalProps } from '../../../lib/ui';
import { notify } from '../../../components/notify';
import { ResponsiveModal } from '../../../components/modal';
import { pieceUpdated } from '../../../lib/contentEvents';
import { selectIsAdmin, selectPlans, selectSubscription, selectUser } from '../../auth';
import { AUDIENCES, audienceOf, countFlagOf, mayChoosePrivacy, withAudience, type Audience, type ContentSetting } from '../privacy.rules';
import './privacy.css';

/** The toast after a save (the spec names no message of its own for it). */
export const PRIVACY_SAVED = 'Privacy settings saved';

/** The piece as the server has it now (its current setting), while the modal is open; closing, the last one shown. */
function usePiece(open: boolean, contentId: string) {
  const read = useGetContentByIdQuery({ path: { id: contentId }, quiet: 'the modal shows the failure in place of the choices' }, { skip: !open || !contentId });
  const answer = open ? read.currentData : read.data;
  return { piece: answer?.content ?? null, failure: read.isError ? (read.error as CachedError).message : null };
}

/**
 * Whether the member may choose, from their subscription and the plans. Both are known since the sign-in; they are
 * asked again on opening (a plan bought in another tab counts), and a failed read keeps what was known.
 */
function usePlanCheck(open: boolean) {
  const userId = useAppSelector(selectUser)?.id;
  const isAdmin = useAppSelector(selectIsAdmin);
  const knownSubscription = useAppSelector(selectSubscription);
  const knownPlans = useAppSelector(selectPlans);
  const reads = { skip: !open || !userId || isAdmin, refetchOnMountOrArgChange: true };
  const subscription = useGetSubscriptionQuery({ path: { id: userId ?? '' }, quiet: 'a failed check keeps the plan known since the sign-in' }, reads);
  // The plans are read as every other screen reads them (one cached answer), so a failed read is the one error toast.
  const plans = useGetAllPlansQuery(undefined, reads);
  const checked = [subscription, plans].every((read) => read.isSuccess || read.isError);
  return {
    known: isAdmin || checked,
    allowed: mayChoosePrivacy(isAdmin, subscription.data ? subscription.data.subscription : knownSubscription, plans.data?.plans ?? knownPlans),
  };
}

/**
 * The settings (Privacy) modal, opened from the detail modal's owner menu: who can see the piece (public, followers or
 * private: exclusive) and whether its play count (a song) or view count (art, photos) is hidden from others. Without a
 * plan above the first it says why, links to Pricing and saves nothing (the server refuses too).
 */
export default function PrivacyModal({ open }: { open: boolean }) {
  const dispatch = useAppDispatch();
  const { contentId = '' } = useAppSelector(selectModalProps);
  const { piece, failure } = usePiece(open, contentId);
  const plan = usePlanCheck(open);
  const [setting, setSetting] = useState<ContentSetting | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [saveSetting, { isLoading: saving }] = useUpdateContentSettingMutation();

  // Each opening starts from the piece's setting as the server has it.
  useEffect(() => {
    if (!open) return;
    setSetting(piece ? piece.setting : null);
    setProblem(null);
  }, [open, piece]);

  const close = () => dispatch(modalClosed());
  const ready = Boolean(piece && setting && plan.known);
  const locked = !plan.allowed || saving;

  const save = async () => {
    if (!piece || !setting || !plan.allowed) return;
    if (!audienceOf(setting)) return setProblem(MESSAGES.privacyExclusive);
    setProblem(null);
    try {
      const { content } = await saveSetting({ body: { contentId: piece.id, setting }, quiet: 'the modal shows the refusal under the choices' }).unwrap();
      dispatch(pieceUpdated(content));
      notify('success', PRIVACY_SAVED);
      close();
    } catch (error) {
      setProblem((error as CachedError).message);
    }
  };

  const countFlag = piece ? countFlagOf(piece) : 'hideViewCount';
  return (
    <ResponsiveModal
      open={open}
      onCancel={close}
      title="Privacy"
      width={520}
      centered="off-phones"
      rootClassName="kn-privacy-modal"
      footer={
        <div className="kn-privacy__footer">
          <Button onClick={close} disabled={saving}>
            Cancel
          </Button>
          <Button type="primary" loading={saving} disabled={!ready || !plan.allowed} onClick={() => void save()}>
            Save
          </Button>
        </div>
      }
    >
      {failure ? (
        <Alert type="error" showIcon title={failure} />
      ) : !ready || !piece || !setting ? (
        <div className="kn-privacy__loading">
          <Spin aria-label="Loading the privacy settings" />
        </div>
      ) : (
        <div className="kn-privacy" aria-busy={saving}>
          <p className="kn-privacy__intro">
            Choose who can see “<strong>{piece.title}</strong>”.
          </p>
          {plan.allowed ? null : (
            <Alert
              className="kn-privacy__gate"
              type="info"
              showIcon
              title={
                <>
                  <span>{MESSAGES.privacyNeedsPlan}</span>{' '}
                  <Link to={PATHS.pricing} onClick={close}>
                    See the plans on Pricing
                  </Link>
                </>
              }
            />
          )}
          <fieldset className="kn-privacy__group">
            <legend>Who can see it</legend>
            <Radio.Group
              className="kn-privacy__audiences"
              value={audienceOf(setting)}
              disabled={locked}
              onChange={(event) => setSetting(withAudience(setting, event.target.value as Audience))}
            >
              {AUDIENCES.map(({ value, label, hint }) => (
                <Radio key={value} value={value} className="kn-privacy__audience">
                  <span className="kn-privacy__label">{label}</span>
                  <span className="kn-privacy__hint">{hint}</span>
                </Radio>
              ))}
            </Radio.Group>
          </fieldset>
          <fieldset className="kn-privacy__group">
            <legend>Counts</legend>
            <Checkbox checked={setting[countFlag]} disabled={locked} onChange={(event) => setSetting({ ...setting, [countFlag]: event.target.checked })}>
              {countFlag === 'hidePlayCount' ? 'Hide play count' : 'Hide view count'}
            </Checkbox>
            <p className="kn-privacy__hint kn-privacy__hint--below">Only you and the admins will see it.</p>
          </fieldset>
          {problem ? <Alert className="kn-privacy__problem" type="error" showIcon role="alert" title={problem} /> : null}
        </div>
      )}
    </ResponsiveModal>
  );
}
