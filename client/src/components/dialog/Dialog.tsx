import { useEffect, useLayoutEffect, useRef, useState, type CSSProperties, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import CloseOutlined from '@ant-design/icons/es/icons/CloseOutlined';
import './dialog.css';

/** How long the closing animation runs (dialog.css), after which the dialog's contents go. */
export const DIALOG_CLOSE_MS = 160;

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The dialogs open now: the page behind keeps still while any is open. */
let openCount = 0;

function lockPageScroll(): () => void {
  const root = document.documentElement;
  if (openCount === 0) {
    // The scroll bar's width is kept as padding, so the page behind does not shift when it goes.
    root.style.setProperty('--kn-scrollbar-width', `${Math.max(0, window.innerWidth - root.clientWidth)}px`);
    root.classList.add('kn-dialog-open');
  }
  openCount += 1;
  return () => {
    openCount -= 1;
    if (openCount === 0) {
      root.classList.remove('kn-dialog-open');
      root.style.removeProperty('--kn-scrollbar-width');
    }
  };
}

/** Whether a control can take the focus: not hidden, nor inside something hidden or inert. */
const focusable = (element: HTMLElement) => !element.closest('[hidden], [inert], [aria-hidden="true"]') && getComputedStyle(element).visibility !== 'hidden';

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  /** The dialog's accessible name (not shown: the contents show their own title). */
  label: string;
  className: string;
  /** The whole screen (phones, a full image); otherwise centred at `width` × `height`. */
  fullScreen?: boolean;
  width?: number | string;
  height?: number;
  /** Over another dialog (the full image over the piece). */
  stacked?: boolean;
  children: ReactNode;
}

/**
 * A modal dialog of our own, for the dialogs a visitor lands on (a piece's share link opens one): it draws with the
 * page's CSS and none of antd's code, as the page frame's buttons do. It does what a modal dialog must: it is named,
 * it takes the focus and keeps Tab inside, Escape, × and a click outside close it, the page behind does not scroll,
 * and the focus returns where it was. Its contents are rendered only while it is open (and while it closes).
 *
 * It sits under antd's modals (z-index 1000), so a modal opened from it (log in, flag, share) shows on top. Keys
 * pressed in one of those never reach it: they are answered only when they come from inside its own panel.
 */
export function Dialog({ open, onClose, label, className, fullScreen = false, width, height, stacked = false, children }: DialogProps) {
  const [shown, setShown] = useState(open);
  const panel = useRef<HTMLDivElement>(null);
  const pressedOutside = useRef(false);

  // Closing: the contents stay for the closing animation, then go.
  useEffect(() => {
    if (open) {
      setShown(true);
      return undefined;
    }
    const timer = setTimeout(() => setShown(false), DIALOG_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [open]);

  useEffect(() => (open ? lockPageScroll() : undefined), [open]);

  // Opening takes the focus; closing gives it back to what had it (a card, a button), if it is still there. (In the
  // effect's body, not its cleanup: React puts the focus back where it was after the DOM changes, which runs after
  // the cleanups and would undo it.)
  const returnTo = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    if (open) {
      returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      panel.current?.focus({ preventScroll: true });
    } else if (returnTo.current) {
      if (returnTo.current.isConnected) returnTo.current.focus({ preventScroll: true });
      returnTo.current = null;
    }
  }, [open]);

  if (!open && !shown) return null;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const own = panel.current;
    if (!own || !own.contains(event.target as Node)) return;
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== 'Tab') return;
    const controls = [...own.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(focusable);
    const first = controls[0];
    const last = controls[controls.length - 1];
    if (!first || !last) return event.preventDefault();
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === own)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  };

  // A click outside the panel closes, if it also began outside (a text selection dragged out of it does not).
  const onWrapMouseDown = (event: MouseEvent<HTMLDivElement>) => {
    pressedOutside.current = event.target === event.currentTarget;
  };
  const onWrapClick = (event: MouseEvent<HTMLDivElement>) => {
    if (pressedOutside.current && event.target === event.currentTarget) onClose();
    pressedOutside.current = false;
  };

  const classes = ['kn-dialog', className, fullScreen ? 'kn-dialog--full' : '', stacked ? 'kn-dialog--stacked' : '', open ? '' : 'is-closing'];
  const size: CSSProperties | undefined = fullScreen ? undefined : { width, height };
  return createPortal(
    <div className={classes.filter(Boolean).join(' ')}>
      <div className="kn-dialog__mask" aria-hidden />
      <div className="kn-dialog__wrap" onMouseDown={onWrapMouseDown} onClick={onWrapClick}>
        <div ref={panel} className="kn-dialog__panel" role="dialog" aria-modal="true" aria-label={label} tabIndex={-1} style={size} onKeyDown={onKeyDown}>
          <button type="button" className="kn-dialog__close" aria-label="Close" onClick={onClose}>
            <CloseOutlined aria-hidden />
          </button>
          {children}
        </div>
      </div>
    </div>,
    document.body,
  );
}
