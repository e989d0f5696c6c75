import CheckCircleFilled from '@ant-design/icons/es/icons/CheckCircleFilled';
import DollarCircleOutlined from '@ant-design/icons/es/icons/DollarCircleOutlined';
import './monetized.css';

export interface MonetizedIconProps {
  paidOut: boolean;
  /** Added to `kn-money` (the size where it stands). */
  className?: string;
  /** The name when not monetized: 'Not monetized' (the detail), 'Not monetized yet' (the cards). */
  unpaidLabel?: string;
}

/**
 * A check when the piece is monetized (its listing fee paid), a dollar sign when it is not. Used by
 * the content detail and Explore's content cards.
 */
export function MonetizedIcon({ paidOut, className = '', unpaidLabel = 'Not monetized' }: MonetizedIconProps) {
  const label = paidOut ? 'Monetized' : unpaidLabel;
  return (
    <span className={`kn-money${paidOut ? ' is-paid' : ''} ${className}`.trim()} role="img" aria-label={label} title={label}>
      {paidOut ? <CheckCircleFilled aria-hidden /> : <DollarCircleOutlined aria-hidden />}
    </span>
  );
}
