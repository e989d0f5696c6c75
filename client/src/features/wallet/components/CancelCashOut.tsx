import { useState } from 'react';
import Button from 'antd/es/button';
import Modal from 'antd/es/modal';
import { useCancelCashOutMutation } from '../../../api/generated/endpoints';
import { formatUsd } from '../../../components/format';
import { useToastedCall } from '../../../lib/useToastedCall';
import type { HistoryItem } from '../hooks/useHistory';

/** Whether the member may still take the request back: a cash-out no admin has acted on yet. */
export const isCancellable = (item: HistoryItem) => item.activityType === 'Earn' && item.status === 'pending';

/**
 * Cancel on a waiting cash-out request, which asks first. Once cancelled the balance is the member's again: the
 * monthly payout pays it, or they ask again. The wallet and the history load again by themselves.
 */
export function CancelCashOut({ item }: { item: HistoryItem }) {
  const [asking, setAsking] = useState(false);
  const [cancelCashOut] = useCancelCashOutMutation();
  const { busy, run } = useToastedCall();
  const cancel = async () => {
    const done = await run(async () => {
      const answer = await cancelCashOut({ body: { historyId: item.historyId }, quiet: 'the question toasts the outcome itself' }).unwrap();
      return answer.message;
    });
    if (done) setAsking(false);
  };
  return (
    <>
      <Button className="kn-history__proof" size="small" onClick={() => setAsking(true)}>
        Cancel
      </Button>
      <Modal
        open={asking}
        title="Cancel this cash-out?"
        okText="Cancel cash-out"
        cancelText="Keep it"
        okButtonProps={{ danger: true, loading: busy }}
        onOk={() => void cancel()}
        onCancel={busy ? undefined : () => setAsking(false)}
      >
        <p>{`Your request to cash out ${formatUsd(item.changes.paid)} is withdrawn, and the balance is yours again: the monthly payout on the 1st pays it, or you can ask again.`}</p>
      </Modal>
    </>
  );
}
