/**
 * Our own modal dialog (the content detail a shared link opens, and its full image): named, it takes the focus and
 * keeps Tab inside, Escape, × and a click outside close it (a click that began inside does not), the page behind
 * does not scroll while it is open, and the focus returns to what had it.
 */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { Dialog, DIALOG_CLOSE_MS } from '../../client/src/components/dialog';

function Harness({ onClose = () => undefined, fullScreen = false }: { onClose?: () => void; fullScreen?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      <Dialog
        open={open}
        onClose={() => {
          onClose();
          setOpen(false);
        }}
        label="Blue Hour"
        className="kn-test-dialog"
        fullScreen={fullScreen}
      >
        <a href="/jane_doe">Jane</a>
        <button type="button">Last</button>
      </Dialog>
    </>
  );
}

/** Opens the dialog and waits one frame: the dialog takes the focus in the frame after it is drawn. */
const openDialog = async () => {
  const opener = screen.getByRole('button', { name: 'Open' });
  opener.focus();
  fireEvent.click(opener);
  const dialog = screen.getByRole('dialog', { name: 'Blue Hour' });
  await act(() => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())));
  return dialog;
};

afterEach(() => jest.useRealTimers());

describe('the dialog', () => {
  it('when it opens, then it is a named modal dialog with the focus, and the page behind stops scrolling', async () => {
    render(<Harness />);
    const dialog = await openDialog();
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.activeElement).toBe(dialog);
    expect(document.documentElement.classList.contains('kn-dialog-open')).toBe(true);
  });

  it('when it covers the whole screen (a phone), then the page behind is marked to be left undrawn until it closes; a centred one leaves it drawn', async () => {
    const { unmount } = render(<Harness fullScreen />);
    const dialog = await openDialog();
    expect(document.documentElement.classList.contains('kn-dialog-covers')).toBe(true);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(document.documentElement.classList.contains('kn-dialog-covers')).toBe(false);
    unmount();
    render(<Harness />);
    await openDialog();
    expect(document.documentElement.classList.contains('kn-dialog-covers')).toBe(false);
  });

  it('when Escape is pressed inside it, then it closes, its contents go after the closing animation, and the focus returns to the opener', async () => {
    const closed = jest.fn();
    render(<Harness onClose={closed} />);
    const dialog = await openDialog();
    jest.useFakeTimers();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(closed).toHaveBeenCalledTimes(1);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Open' }));
    expect(document.documentElement.classList.contains('kn-dialog-open')).toBe(false);
    expect(document.querySelector('.kn-test-dialog.is-closing')).toBeTruthy();
    act(() => jest.advanceTimersByTime(DIALOG_CLOSE_MS));
    expect(document.querySelector('.kn-test-dialog')).toBeNull();
  });

  it('when Tab leaves the last control, then the focus goes to the first, ×; and Shift+Tab from the first goes to the last', async () => {
    render(<Harness />);
    await openDialog();
    const last = screen.getByRole('button', { name: 'Last' });
    last.focus();
    fireEvent.keyDown(last, { key: 'Tab' });
    const first = screen.getByRole('button', { name: 'Close' });
    expect(document.activeElement).toBe(first);
    fireEvent.keyDown(first, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(last);
  });

  it('when × is pressed, or a click begins and ends outside the panel, then it closes; a click that began inside does not', async () => {
    const closed = jest.fn();
    render(<Harness onClose={closed} />);
    await openDialog();
    const wrap = document.querySelector<HTMLElement>('.kn-dialog__wrap')!;
    fireEvent.mouseDown(screen.getByRole('link', { name: 'Jane' }));
    fireEvent.click(wrap);
    expect(closed).not.toHaveBeenCalled();
    fireEvent.mouseDown(wrap);
    fireEvent.click(wrap);
    expect(closed).toHaveBeenCalledTimes(1);

    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(closed).toHaveBeenCalledTimes(2);
  });

  it('when Escape is pressed in something that is not inside it (a modal opened over it), then it stays open', async () => {
    const closed = jest.fn();
    render(<Harness onClose={closed} />);
    await openDialog();
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(closed).not.toHaveBeenCalled();
  });
});
