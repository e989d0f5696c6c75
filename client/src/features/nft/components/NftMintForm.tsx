import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import Result from 'antd/es/result';
import Spin from 'antd/es/spin';
import Steps from 'antd/es/steps';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { detailOpened } from '../../../lib/contentEvents';
import { fileChosen, fileRemoved, selectUpload, uploadCancelled } from '../../upload';
import { clearSubTagOnNewMainTag, ContentFields, useDefaultMainTag } from '../../upload/entry';
import {
  DEFAULT_TOKEN_AMOUNT,
  ISSUER_STARTING_XLM,
  isExpired,
  isHttpsUrl,
  NFT_MESSAGES,
  TOKEN_AMOUNT_MAX,
  TOKEN_CODE_MAX,
  TOKEN_CODE_PATTERN,
  TOML_DESCRIPTION_MAX,
  TOML_NAME_MAX,
  unitsToAmount,
} from '../nft.rules';
import { selectNft } from '../nft.selectors';
import { nftDetailsEntered, nftFormOpened, nftPrepareRequested, nftSignRequested, nftStepBack, nftTokenEntered, nftTomlEntered } from '../nft.slice';
import type { NftDetails, NftStep } from '../nft.types';
import { LINK_WALLET_PATH } from './NftSidebar';

/** Every field of the four steps (the files are the upload feature's; their paths are fields for the rules). */
interface NftFormValues extends NftDetails {
  tomlName: string;
  tomlDescription: string;
  tomlImage: string;
  tokenCode: string;
  tokenAmount: number;
}

const STEP_TITLES: Record<NftStep, string> = { 1: 'Details', 2: 'Token page', 3: 'Token', 4: 'Sign and save' };

const WORKING_TEXT = {
  start: 'Checking your wallet’s account…',
  prepare: 'Pinning your file to IPFS and building the transaction…',
  sign: 'Waiting for your wallet to sign…',
  submit: 'Publishing…',
} as const;

const time = (at: string) => new Date(at).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** Re-renders when `at` passes, and tells whether it has. */
function usePassed(at: string | undefined): boolean {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!at) return;
    const left = Date.parse(at) - Date.now();
    if (left <= 0) return;
    const timer = setTimeout(() => setNow(Date.now()), left + 50);
    return () => clearTimeout(timer);
  }, [at]);
  return isExpired(at, Math.max(now, Date.now()));
}

/**
 * NFT mode's form in four steps: 1 the piece's details (as the classic upload asks for them), 2 the optional token
 * page (SEP-1 fields), 3 the token code and amount (Next starts the mint), 4 sign and save (opening it pins the file
 * and builds the transaction). Only the current step's fields are on screen, so Next checks those; what was entered
 * stays in the form when going back. Every input is disabled while something is in flight.
 */
export function NftMintForm() {
  const dispatch = useAppDispatch();
  const nft = useAppSelector(selectNft);
  const upload = useAppSelector(selectUpload);
  const defaultMainTag = useDefaultMainTag('content');
  const [form] = Form.useForm<NftFormValues>();
  const busy = upload.sending !== null || nft.working !== null;
  const { step, mint, problem } = nft;
  const expired = usePassed(mint?.transaction ? mint.expiresAt : undefined);
  const tokenAmount = Form.useWatch('tokenAmount', { form, preserve: true });
  const tokenCode = Form.useWatch('tokenCode', { form, preserve: true });

  const initialValues = useMemo<Partial<NftFormValues>>(
    () => ({
      title: '',
      description: '',
      mainTag: defaultMainTag,
      tomlName: '',
      tomlDescription: '',
      tomlImage: '',
      tokenCode: '',
      tokenAmount: DEFAULT_TOKEN_AMOUNT,
    }),
    [defaultMainTag],
  );

  const next = () => {
    const all = form.getFieldsValue(true) as NftFormValues;
    if (step === 1) {
      dispatch(
        nftDetailsEntered({
          title: all.title,
          description: all.description,
          mainTag: all.mainTag,
          subTag: all.subTag,
          photoPath: upload.photo.file?.path,
          audioPath: upload.audio.file?.path,
        }),
      );
    } else if (step === 2) {
      dispatch(nftTomlEntered({ name: all.tomlName, description: all.tomlDescription, image: all.tomlImage }));
    } else if (step === 3) {
      dispatch(nftTokenEntered({ tokenCode: all.tokenCode, tokenAmount: all.tokenAmount ?? DEFAULT_TOKEN_AMOUNT }));
    } else if (expired || problem?.remedy === 'prepare-again') {
      dispatch(nftPrepareRequested());
    } else if (mint?.transaction) {
      dispatch(nftSignRequested());
    } else {
      dispatch(nftPrepareRequested());
    }
  };

  if (nft.published) {
    const piece = nft.published;
    return (
      <Result
        className="kn-nft-done"
        status="success"
        title="Published as an NFT"
        subTitle={`${piece.title} is on Knack, and its token ${piece.nft?.tokenCode ?? ''} is in your wallet.`}
        extra={[
          <Button key="open" type="primary" onClick={() => dispatch(detailOpened({ content: piece }))}>
            Open the piece
          </Button>,
          <Button key="again" onClick={() => dispatch(nftFormOpened())}>
            Mint another piece
          </Button>,
        ]}
      />
    );
  }

  const prepared = Boolean(mint?.transaction) && nft.working !== 'prepare';
  const wantsPrepare = step === 4 && (!prepared || expired || problem?.remedy === 'prepare-again');
  const primaryLabel =
    nft.working === 'sign'
      ? 'Signing…'
      : nft.working === 'submit'
        ? 'Publishing…'
        : step === 4
          ? wantsPrepare
            ? 'Prepare again'
            : 'Sign and save'
          : step === 3 && nft.working === 'start'
            ? 'Checking…'
            : 'Next';

  return (
    <Form<NftFormValues>
      form={form}
      layout="vertical"
      requiredMark={false}
      disabled={busy}
      initialValues={initialValues}
      validateTrigger={['onBlur', 'onChange']}
      onValuesChange={(changed: Partial<NftFormValues>) => clearSubTagOnNewMainTag(form, changed)}
      onFinish={next}
      className="kn-upload kn-nft-form"
      aria-labelledby="kn-nft-step-title"
    >
      <Steps
        className="kn-nft-steps"
        size="small"
        current={step - 1}
        responsive={false}
        items={([1, 2, 3, 4] as const).map((n) => ({ title: STEP_TITLES[n] }))}
      />
      <h2 className="kn-nft-form__step" id="kn-nft-step-title">
        Step {step} of 4 · {STEP_TITLES[step]}
        {step === 2 ? <span className="kn-nft-form__optional"> (optional)</span> : null}
      </h2>

      {step === 1 ? (
        <ContentFields
          kind="content"
          photo={upload.photo}
          audio={upload.audio}
          busy={busy}
          onFile={(slot, file) => dispatch(fileChosen({ slot, file }))}
          onRemove={(slot) => dispatch(fileRemoved(slot))}
          onCancel={() => dispatch(uploadCancelled())}
        />
      ) : null}

      {step === 2 ? (
        <div className="kn-nft-form__fields">
          <p className="kn-nft-form__hint">
            Knack lists every NFT asset in its stellar.toml, where wallets and explorers read a token’s name, description and image. Leave these empty, or skip
            the step: the image is then the pinned file.
          </p>
          <Form.Item name="tomlName" label="Token name" rules={[{ max: TOML_NAME_MAX, message: `At most ${TOML_NAME_MAX} characters.` }]}>
            <Input maxLength={TOML_NAME_MAX} showCount placeholder="Sunset over Lisbon" autoComplete="off" />
          </Form.Item>
          <Form.Item name="tomlDescription" label="Token description">
            <Input.TextArea maxLength={TOML_DESCRIPTION_MAX} autoSize={{ minRows: 2, maxRows: 4 }} placeholder="What the token stands for" />
          </Form.Item>
          <Form.Item
            name="tomlImage"
            label="Image URL"
            validateTrigger="onBlur"
            rules={[{ validator: (_rule, value?: string) => (isHttpsUrl(value) ? Promise.resolve() : Promise.reject(new Error(NFT_MESSAGES.tomlImageUrl))) }]}
          >
            <Input inputMode="url" placeholder="https://…" autoComplete="off" />
          </Form.Item>
        </div>
      ) : null}

      {step === 3 ? (
        <div className="kn-nft-form__fields kn-nft-form__token">
          <Form.Item
            name="tokenCode"
            label="Token Code"
            normalize={(value?: string) => (value ?? '').toUpperCase()}
            extra={`1 to ${TOKEN_CODE_MAX} letters A–Z and digits 0–9, e.g. SUNSET01.`}
            rules={[
              { required: true, whitespace: true, message: NFT_MESSAGES.tokenCodeRequired },
              {
                validator: (_rule, value?: string) =>
                  !value || TOKEN_CODE_PATTERN.test(value) ? Promise.resolve() : Promise.reject(new Error(NFT_MESSAGES.tokenCodeFormat)),
              },
            ]}
          >
            <Input maxLength={TOKEN_CODE_MAX} autoComplete="off" autoCapitalize="characters" spellCheck={false} placeholder="SUNSET01" />
          </Form.Item>
          <Form.Item
            name="tokenAmount"
            label="Amount (units)"
            extra={`1 unit = 0.0000001 ${tokenCode || 'of the token'}. The supply is ${unitsToAmount(Number(tokenAmount) || DEFAULT_TOKEN_AMOUNT)} ${tokenCode || ''}, fixed for ever.`}
            rules={[
              {
                validator: (_rule, value?: number | null) =>
                  value === undefined || value === null || (Number.isInteger(value) && value >= 1 && value <= TOKEN_AMOUNT_MAX)
                    ? Promise.resolve()
                    : Promise.reject(new Error(NFT_MESSAGES.tokenAmountRange)),
              },
            ]}
          >
            <InputNumber min={1} max={TOKEN_AMOUNT_MAX} precision={0} className="kn-nft-form__amount" />
          </Form.Item>
          {mint ? (
            <p className="kn-nft-form__issuer" data-testid="nft-issuer">
              Issuer <strong title={mint.tokenIssuer}>{mint.tokenIssuerShort}</strong>, an account made for this token alone.
            </p>
          ) : null}
        </div>
      ) : null}

      {step === 4 ? (
        <div className="kn-nft-form__fields kn-nft-form__sign">
          {nft.working === 'prepare' ? (
            <div className="kn-nft-form__working">
              <Spin size="small" /> {WORKING_TEXT.prepare}
            </div>
          ) : null}
          {mint ? (
            <dl className="kn-nft-summary" aria-label="The token">
              <div>
                <dt>Asset</dt>
                <dd>
                  <strong>{mint.tokenCode}</strong> issued by <span title={mint.tokenIssuer}>{mint.tokenIssuerShort}</span>
                </dd>
              </div>
              <div>
                <dt>Supply</dt>
                <dd>
                  {unitsToAmount(mint.tokenAmount)} {mint.tokenCode} ({mint.tokenAmount} {mint.tokenAmount === 1 ? 'unit' : 'units'})
                </dd>
              </div>
              {prepared && mint.ipfsHashShort ? (
                <div>
                  <dt>File on IPFS</dt>
                  <dd>
                    <a href={mint.ipfsUrl} target="_blank" rel="noreferrer" title={mint.ipfsHash} data-testid="nft-cid">
                      {mint.ipfsHashShort}
                    </a>
                  </dd>
                </div>
              ) : null}
              <div>
                <dt>Fees</dt>
                <dd>
                  Your wallet pays the network fee and sends {ISSUER_STARTING_XLM} XLM to open the issuer account, which is then locked so no more of the token
                  can be made.
                </dd>
              </div>
              {prepared && mint.expiresAt ? (
                <div>
                  <dt>Sign before</dt>
                  <dd data-testid="nft-expiry">
                    {expired ? 'The transaction has expired: prepare it again.' : `${time(mint.expiresAt)} (5 minutes from now)`}
                  </dd>
                </div>
              ) : null}
            </dl>
          ) : null}
          {nft.working === 'sign' || nft.working === 'submit' ? (
            <div className="kn-nft-form__working">
              <Spin size="small" /> {WORKING_TEXT[nft.working]}
            </div>
          ) : null}
        </div>
      ) : null}

      {step === 3 && nft.working === 'start' ? (
        <div className="kn-nft-form__working">
          <Spin size="small" /> {WORKING_TEXT.start}
        </div>
      ) : null}

      {problem && problem.step === step && !busy ? (
        <Alert
          className="kn-upload__alert"
          type="error"
          showIcon
          title={problem.message}
          description={
            problem.remedy === 'link-wallet' ? (
              <span>
                <Link to={LINK_WALLET_PATH}>Link a wallet in Settings</Link>, or from the wallet list of your profile summary, then come back.
              </span>
            ) : undefined
          }
        />
      ) : null}

      <footer className="kn-upload__foot kn-nft-form__foot">
        <div className="kn-upload__actions">
          {step > 1 ? (
            <Button size="large" onClick={() => dispatch(nftStepBack())} disabled={busy}>
              Back
            </Button>
          ) : null}
          {step === 2 ? (
            <Button size="large" onClick={() => dispatch(nftTomlEntered(null))} disabled={busy}>
              Skip
            </Button>
          ) : null}
          <Button
            type="primary"
            size="large"
            htmlType="submit"
            loading={nft.working !== null && nft.working !== 'prepare'}
            disabled={busy && nft.working === null}
          >
            {primaryLabel}
          </Button>
        </div>
      </footer>
    </Form>
  );
}
