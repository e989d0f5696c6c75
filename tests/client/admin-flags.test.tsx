/**
 * The admins' flag queue, `/admin/flags`: a member is sent home (and the queue is never asked for); an admin sees
 * each flagged piece with its counts and reasons, opens who flagged it, dismisses (the server's message as a toast),
 * or takes it down with a note for its owner after confirming. The generated operations are mocked; the store,
 * router, route guard and antd are real.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { getOpenFlags, getPieceFlags, resolveFlags } from '../../client/src/api/generated/operations';
import { makeAdmin, makeUser } from './auth-fixtures';
import { path } from './profile-fixtures';
import { renderAsMember } from './wallet-fixtures';

jest.mock('../../client/src/api/generated/operations');

const PAGE = '/admin/flags';
const PIECE_ID = '64c000000000000000000009';
const UNLAWFUL = 'Somebody unlawfully posted your content';
const WRONG_MARKET = 'Wrong market for content genre';
const admin = makeAdmin;

beforeEach(() => {
  jest
    .mocked(getOpenFlags)
    .mockReset()
    .mockResolvedValue({
      pieces: [
        {
          contentId: PIECE_ID,
          title: 'Borrowed Sunset',
          ownerId: '64b0000000000000000000b2',
          ownerUsername: 'ana_lima',
          flagsCount: 6,
          countedFlags: 5,
          reasons: [
            { reason: UNLAWFUL, count: 4 },
            { reason: WRONG_MARKET, count: 2 },
          ],
          held: true,
          lastFlaggedAt: '2026-05-14T12:00:00.000Z',
        },
      ],
    });
  jest
    .mocked(getPieceFlags)
    .mockReset()
    .mockResolvedValue({
      contentId: PIECE_ID,
      flags: [
        { userId: '64b0000000000000000000c3', username: 'cid_ray', reason: WRONG_MARKET, at: '2026-05-14T12:00:00.000Z', counts: true },
        { userId: '64b0000000000000000000c4', username: 'dan_new', reason: UNLAWFUL, at: '2026-05-13T12:00:00.000Z', counts: false },
      ],
    });
  jest.mocked(resolveFlags).mockReset();
});

const pieceCard = async () => within(await screen.findByRole('listitem', { name: 'Borrowed Sunset' }));

describe('the flag queue', () => {
  it('when a member opens it, then they are sent home and the queue is never asked for', async () => {
    await renderAsMember(PAGE, makeUser());
    await screen.findByRole('heading', { level: 1, name: 'Get paid for every play and view.' });
    expect(path()).toBe('/');
    expect(getOpenFlags).not.toHaveBeenCalled();
  });

  it('when an admin opens it, then each piece shows its owner, counts, reasons and hold, and who flagged it on demand', async () => {
    await renderAsMember(PAGE, admin());
    const card = await pieceCard();
    expect(card.getByText('Held off the lists')).toBeTruthy();
    expect(card.getByText(/By ana lima · 6 flags \(5 counted\)/)).toBeTruthy();
    const reasons = within(card.getByRole('list', { name: 'Reasons' }));
    expect(reasons.getAllByRole('listitem').map((item) => item.textContent)).toEqual([`${UNLAWFUL} × 4`, `${WRONG_MARKET} × 2`]);
    expect(getPieceFlags).not.toHaveBeenCalled();
    fireEvent.click(card.getByRole('button', { name: 'Who flagged' }));
    const who = within(await card.findByRole('list', { name: 'Who flagged it' }));
    expect(who.getAllByRole('listitem').map((item) => item.querySelector('strong')!.textContent)).toEqual(['cid ray', 'dan new']);
    expect(who.getByText('does not count toward the hold')).toBeTruthy();
    expect(getPieceFlags).toHaveBeenCalledWith({ path: { id: PIECE_ID } }, expect.anything());
  });

  it('when an admin dismisses, then the decision is sent and the server’s message is a toast', async () => {
    jest.mocked(resolveFlags).mockResolvedValue({ message: 'The flags are dismissed: the piece is back in the lists, and its owner is told.' });
    await renderAsMember(PAGE, admin());
    fireEvent.click((await pieceCard()).getByRole('button', { name: 'Dismiss' }));
    await screen.findByText('The flags are dismissed: the piece is back in the lists, and its owner is told.');
    expect(resolveFlags).toHaveBeenCalledWith({ body: { contentId: PIECE_ID, decision: 'dismiss' } }, expect.anything());
  });

  it('when an admin takes a piece down, then a confirmation asks for a note to its owner, and the note goes with the decision', async () => {
    jest.mocked(resolveFlags).mockResolvedValue({ message: 'The piece is taken down, and its owner is told.' });
    await renderAsMember(PAGE, admin());
    fireEvent.click((await pieceCard()).getByRole('button', { name: 'Take down' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText(/The listing fee is not refunded\./)).toBeTruthy();
    fireEvent.change(dialog.getByRole('textbox', { name: 'Note to the owner' }), { target: { value: ' Not yours to post. ' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Take down' }));
    await screen.findByText('The piece is taken down, and its owner is told.');
    expect(resolveFlags).toHaveBeenCalledWith({ body: { contentId: PIECE_ID, decision: 'hide', note: 'Not yours to post.' } }, expect.anything());
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
