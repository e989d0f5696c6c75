import { useState } from 'react';
import Button from 'antd/es/button';
import SafetyCertificateOutlined from '@ant-design/icons/es/icons/SafetyCertificateOutlined';
import type { CachedError } from '../../../api/cache';
import { knackApi } from '../../../api/generated/endpoints';
import { saveJsonFile } from '../../../lib/saveJsonFile';
import { useAppDispatch } from '../../../lib/storeHooks';
import type { HistoryItem } from '../hooks/useHistory';

/**
 * The ledger entry behind a history item, whose proof can be asked for: the item's own key, or for a cash-out the
 * key of the payment an approved request made. A cash-out still waiting or cancelled moved no money: no entry.
 */
export function ledgerEntryIdOf(item: HistoryItem): string | null {
  if (item.activityType !== 'Earn') return item.historyId;
  return item.status === 'approved' ? `cash-out:${item.historyId}` : null;
}

/** A file name from an entry id: its colons (not allowed in file names on Windows) as dashes. */
const proofFileName = (entryId: string) => `knack-proof-${entryId.replace(/[^\w.-]+/g, '-')}.json`;

const NOT_ANCHORED_YET = "Proof saved. Its day's root is not anchored on Stellar yet: download the proof again later to check it.";

/**
 * "Proof" on a history item: downloads the entry's proof as a JSON file, to check on the verifier page or with the
 * script. When the server cannot give it yet (the day is not over, its root is not made) its sentence shows under
 * the item, in place of a toast: it is an answer to wait for, not an error.
 */
export function ProofDownload({ entryId, label }: { entryId: string; label: string }) {
  const dispatch = useAppDispatch();
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);

  const download = async () => {
    setBusy(true);
    setNote(null);
    // Asked afresh each time: a proof downloaded again later may have been anchored meanwhile.
    const request = dispatch(
      knackApi.endpoints.getLedgerProof.initiate(
        { path: { entryId }, quiet: 'the history item says why its proof cannot be had yet' },
        { subscribe: false, forceRefetch: true },
      ),
    );
    try {
      const proof = await request.unwrap();
      saveJsonFile(proof, proofFileName(entryId));
      if (proof.anchor.status !== 'anchored') setNote(NOT_ANCHORED_YET);
    } catch (error) {
      setNote((error as CachedError).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        className="kn-history__proof"
        size="small"
        icon={<SafetyCertificateOutlined aria-hidden />}
        loading={busy}
        aria-label={label}
        onClick={() => void download()}
      >
        Proof
      </Button>
      {note ? (
        <p className="kn-history__note" role="status">
          {note}
        </p>
      ) : null}
    </>
  );
}
