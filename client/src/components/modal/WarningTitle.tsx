import type { ReactNode } from 'react';
import ExclamationCircleFilled from '@ant-design/icons/es/icons/ExclamationCircleFilled';

/**
 * The title of a modal that asks before something that cannot be undone: a warning sign, then the question. The
 * modal's own class (`className`) gives the sign its colour.
 */
export function WarningTitle({ className, children }: { className: string; children: ReactNode }) {
  return (
    <span className={`kn-warning-title ${className}`}>
      <ExclamationCircleFilled aria-hidden /> {children}
    </span>
  );
}
