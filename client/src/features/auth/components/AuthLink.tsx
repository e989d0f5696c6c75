import type { MouseEvent, ReactNode } from 'react';

/** Keeps the focus where it is when the pointer presses the link (the click still follows). */
const keepFocus = (event: MouseEvent) => event.preventDefault();

/**
 * A link-styled button that moves between the auth views (log in, create account, forgot password). Pressing
 * it leaves the focus in the field it was in: the forms check a field when it loses focus, and the message
 * that check adds ('Please input password') would push the link down under the pointer between press and
 * release, so the tap could be lost, and the message would flash for nothing. Keyboard users move to it with Tab
 * as usual.
 */
export function AuthLink({ onClick, disabled, children }: { onClick: () => void; disabled?: boolean; children: ReactNode }) {
  return (
    <button type="button" className="kn-auth__link" onMouseDown={keepFocus} onClick={onClick} disabled={disabled}>
      {children}
    </button>
  );
}
