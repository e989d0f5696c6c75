import { useEffect, useLayoutEffect, useRef, useState, type CSSProperties, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import CloseOutlined from '@ant-design/icons/es/icons/CloseOutlined';
import './dialog.css';

/** How long the closing animation runs (dialog.css), after which the dialog's contents go. */
export const DIALOG_CLOSE_MS = 160;

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The dialogs open now, and those of them that cover the whole screen. */
const openDialogs = { all: 0, covering: 0 };

/**
 * While a dialog is open the page behind keeps still; while one covers the whole screen (a phone's), the page behind is
 * not drawn at all (dialog.css), which saves a phone laying out and painting what nobody sees. On a larger screen the
 * scroll bar's width is kept as padding, so the page behind does not shift when the bar goes (measuring it lays the
 * page out, which a phone, whose scroll bars take no room, is spared).
 */
function holdPage(covers: boolean): () => void {
  const root = document.documentElement;
  if (!covers && openDialogs.all === 0) root.style.setProperty('--kn-scrollbar-width', `${Math.max(0, window.innerWidth - root.clientWidth)}px`);
  const count = (key: 'all' | 'covering', by: number, className: string) => {
    openDialogs[key] += by;
    root.classList.toggle(className, openDialogs[key] > 0);
  };
  count('all', 1, 'kn-dialog-open');
  if (covers) count('covering', 1, 'kn-dialog-covers');
  return () => {
    count('all', -1, 'kn-dialog-open');
    if (covers) count('covering', -1, 'kn-dialog-covers');
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

  // Before the focus below: taking the focus lays the document out, and a covered page behind is then left out of it.
  useLayoutEffect(() => (open ? holdPage(fullScreen) : undefined), [open, fullScreen]);

  // Opening takes the focus, in the next frame: taking it lays the document out, and inside the render that opened the
  // dialog (a shared link's first render on a phone) that layout made one long task of two. Closing gives the focus
  // back to what had it (a card, a button), if it is still there. (In the effect's body, not its cleanup: React puts
  // the focus back where it was after the DOM changes, which runs after the cleanups and would undo it.)
  const returnTo = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    if (open) {
      returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      const frame = requestAnimationFrame(() => panel.current?.focus({ preventScroll: true }));
      return () => cancelAnimationFrame(frame);
    } else if (returnTo.current) {
      if (returnTo.current.isConnected) returnTo.current.focus({ preventScroll: true });
      returnTo.current = null;
    }
    return undefined;
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
