import CheckCircleFilled from '@ant-design/icons/es/icons/CheckCircleFilled';
import DollarCircleOutlined from '@ant-design/icons/es/icons/DollarCircleOutlined';

/** Spec §2: a check when the piece is monetized (its listing fee paid), a dollar sign when it is not. */
export function MonetizedIcon({ paidOut }: { paidOut: boolean }) {
  const label = paidOut ? 'Monetized' : 'Not monetized';
  return (
    <span className={paidOut ? 'kn-money is-paid' : 'kn-money'} role="img" aria-label={label} title={label}>
      {paidOut ? <CheckCircleFilled aria-hidden /> : <DollarCircleOutlined aria-hidden />}
    </span>
  );
}
