import { useState, type ChangeEvent } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import SafetyCertificateOutlined from '@ant-design/icons/es/icons/SafetyCertificateOutlined';
import UploadOutlined from '@ant-design/icons/es/icons/UploadOutlined';
import { PageHead } from '../../../components/PageHead';
import { entryFacts, horizonFor, readProof, SDF_HORIZONS, verifyProof, type LedgerProof, type Verdict, type VerdictKind } from '../proof/verifyProof';
import '../components/verify.css';

const VERDICTS: Record<VerdictKind, { title: string; tone: 'success' | 'error' | 'warning' | 'info' }> = {
  verified: { title: 'Verified', tone: 'success' },
  'root-mismatch': { title: 'Root mismatch', tone: 'error' },
  failed: { title: 'Not verified', tone: 'error' },
  'not-anchored': { title: 'Not anchored yet', tone: 'info' },
  unreachable: { title: 'Could not reach Horizon', tone: 'warning' },
  'not-a-proof': { title: 'Not a Knack proof', tone: 'error' },
};

/** What was checked, row by row, once a proof was read. */
function Checked({ proof, verdict }: { proof: LedgerProof; verdict: Verdict }) {
  const facts = entryFacts(proof);
  const rows: [string, string][] = [
    ['Entry', `${proof.entryId}${facts.kind ? ` (${facts.kind}, ${facts.at ?? 'no time'})` : ''}`],
    ['Day', `${proof.day}: leaf ${proof.leafIndex} of ${proof.treeSize}`],
    ['Root', proof.root],
  ];
  if (verdict.computedRoot !== undefined) rows.push(['Computed', verdict.computedRoot ?? 'the path does not fit a tree of this size']);
  const tx = verdict.transaction;
  if (tx) {
    rows.push(['Transaction', `${tx.hash} in ledger ${tx.ledger}, ${tx.createdAt}`]);
    rows.push(['From', tx.sourceAccount]);
    rows.push(['Memo', tx.memo ?? 'not a hash']);
    rows.push(['Horizon', tx.horizon]);
  } else if (proof.anchor.account) {
    rows.push(['Anchor account', proof.anchor.account]);
  }
  return (
    <dl className="kn-verify__checked" aria-label="What was checked">
      {rows.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * `/verify`, open to visitors: a ledger proof (a file chosen or its text pasted) checked in the browser. The root is
 * recomputed from the entry with Web Crypto, then compared with the memo of the anchoring transaction, read from the
 * proof's network's Horizon (the SDF's, or the one the visitor names).
 */
export default function VerifyProofPage() {
  const [text, setText] = useState('');
  const [fileName, setFileName] = useState<string | null>(null);
  const [horizon, setHorizon] = useState('');
  const [checking, setChecking] = useState(false);
  const [result, setResult] = useState<{ verdict: Verdict; proof: LedgerProof | null } | null>(null);

  const read = readProof(text);
  const proof = 'proof' in read ? read.proof : null;
  const defaultHorizon = proof ? SDF_HORIZONS[proof.anchor.network] : undefined;

  const chooseFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = ''; // the same file can be chosen again
    if (!file) return;
    setFileName(file.name);
    setText(await file.text());
    setResult(null);
  };

  const verify = async () => {
    if (!proof) {
      setResult({ verdict: (read as { verdict: Verdict }).verdict, proof: null });
      return;
    }
    setChecking(true);
    setResult(null);
    const verdict = await verifyProof(proof, horizon);
    setResult({ verdict, proof });
    setChecking(false);
  };

  const shown = result ? VERDICTS[result.verdict.kind] : null;
  return (
    <div className="kn-verify">
      <PageHead
        icon={<SafetyCertificateOutlined aria-hidden />}
        title="Verify a proof"
        sub="Check, without trusting Knack, that a ledger entry is in its day's root anchored on the Stellar network."
      />
      <section className="kn-verify__form" aria-label="Proof to check">
        <div className="kn-verify__file">
          <label className="kn-verify__choose">
            <input type="file" accept="application/json,.json" className="kn-verify__file-input" onChange={(event) => void chooseFile(event)} />
            <UploadOutlined aria-hidden /> Choose a proof file
          </label>
          <span className="kn-verify__file-name">{fileName ?? 'Downloaded from a wallet’s history (Proof).'}</span>
        </div>
        <label className="kn-verify__label" htmlFor="kn-verify-text">
          Or paste the proof
        </label>
        <Input.TextArea
          id="kn-verify-text"
          className="kn-verify__text"
          value={text}
          autoSize={{ minRows: 4, maxRows: 10 }}
          spellCheck={false}
          placeholder='{"version":1,"tree":"rfc6962-sha256","entryId":…}'
          onChange={(event) => {
            setText(event.target.value);
            setFileName(null);
            setResult(null);
          }}
        />
        <label className="kn-verify__label" htmlFor="kn-verify-horizon">
          Horizon
        </label>
        <Input
          id="kn-verify-horizon"
          value={horizon}
          inputMode="url"
          placeholder={defaultHorizon ?? (proof ? 'The address of the Horizon of the proof’s network' : SDF_HORIZONS.testnet)}
          onChange={(event) => setHorizon(event.target.value)}
        />
        <p className="kn-verify__hint">
          {proof && horizonFor(proof, horizon) === null
            ? 'This proof names a network of its own: give the address of its Horizon.'
            : 'Empty: the Stellar Development Foundation’s Horizon of the proof’s network. This page reaches SDF’s Horizons and this Knack’s; check against another with the script in the README.'}
        </p>
        <Button type="primary" size="large" loading={checking} disabled={!text.trim()} onClick={() => void verify()}>
          Verify
        </Button>
      </section>
      {result && shown ? (
        <section className="kn-verify__result" aria-label="Verdict">
          <Alert type={shown.tone} showIcon title={shown.title} description={result.verdict.reason} />
          {result.proof ? <Checked proof={result.proof} verdict={result.verdict} /> : null}
          {result.verdict.kind === 'verified' ? (
            <p className="kn-verify__hint">Check that this account is the anchor account your Knack names: its operator publishes it.</p>
          ) : null}
        </section>
      ) : null}
      <section className="kn-verify__about" aria-labelledby="kn-verify-about">
        <h2 id="kn-verify-about" className="kn-section-title">
          What it proves
        </h2>
        <p>
          That the entry, exactly as the proof shows it, is one of the entries of its day whose root was anchored on Stellar: no entry of a closed day was
          changed or dropped after its root was anchored. It does not prove that an entry was right when it was written, anything about today’s entries, or
          anything before anchoring began.
        </p>
        <p>
          The same check runs without a browser: <code>node scripts/verify-proof.mjs proof.json</code>.
        </p>
      </section>
    </div>
  );
}
