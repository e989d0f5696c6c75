/**
 * The flag modal, opened from the detail modal's header by a member who does not own the piece: it says which flags
 * count toward taking a piece off the lists, flags with the reason chosen, and shows the server's refusal of a flag
 * its team has already reviewed (the one error toast of the HTTP client).
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { checkLoggedIn, getContentById, getMyFlag, getUserExt, setFlag } from '../../client/src/api/generated/operations';
import { authAnswer, makeUser, storeAccount } from './auth-fixtures';
import { renderAt, stubMedia, toastTexts, useJaneWorld } from './profile-fixtures';
import { restoreNetwork, sendThroughHttp } from './wallet-fixtures';

jest.mock('../../client/src/api/generated/operations');

const world = useJaneWorld();
afterEach(restoreNetwork);
const bea = makeUser({ id: '64b0000000000000000000b2', username: 'bea_moon', email: 'bea@example.com' });
const UNLAWFUL = 'Somebody unlawfully posted your content';
const WRONG_MARKET = 'Wrong market for content genre';
const REVIEWED = 'Our team has reviewed the flags on this piece. You can flag it again if it changes.';

function signInAsBea() {
  window.localStorage.clear();
  storeAccount('stored-token', bea);
  jest.mocked(checkLoggedIn).mockResolvedValue(authAnswer('fresh-token', bea));
  jest.mocked(getUserExt).mockResolvedValue({ userExt: { country: null, city: '', state: '', timezone: null, pCredit: 0, sCredit: 0 } });
  jest.mocked(getContentById).mockImplementation(async ({ path }) => ({ content: world.pieces.find((piece) => piece.id === path.id)! }));
}

/** Long enough for the page's and the modal's lazy chunks to load on a busy machine. */
const LOADED = { timeout: 15_000 };

/** Jane's "Blue Hour" opened in the detail modal, then its Flag button: the flag dialog, once Bea's flag is read. */
async function openFlag() {
  stubMedia();
  renderAt('/jane_doe');
  fireEvent.click(await screen.findByRole('link', { name: 'Blue Hour' }, LOADED));
  const detail = within(await screen.findByRole('dialog', { name: 'Blue Hour' }, LOADED));
  fireEvent.click(await detail.findByRole('button', { name: /Flag/ }));
  // Found by its title's text: under jsdom every antd dialog is labelled by the same test id, so by the first title.
  const node = await waitFor(() => {
    const found = screen.getAllByRole('dialog').find((candidate) => candidate.querySelector('.ant-modal-title')?.textContent === 'Flag this piece');
    if (!found) throw new Error('no flag dialog');
    return found;
  }, LOADED);
  const dialog = within(node);
  await waitFor(() => expect((dialog.getByRole('button', { name: WRONG_MARKET }) as HTMLButtonElement).disabled).toBe(false));
  return dialog;
}

it('when a member opens the flag modal, then it says which flags take a piece off the lists, and that a reviewed piece can be flagged again only once it changes', async () => {
  signInAsBea();
  jest.mocked(getMyFlag).mockResolvedValue({ reason: null, message: 'You have not flagged this piece.' });
  const dialog = await openFlag();
  const help = dialog.getByText(/Once 5 members have flagged a piece/);
  expect(help.textContent).toContain('A flag counts toward that when your account is activated, at least 3 days old');
  expect(help.textContent).toContain('you follow a member, have a piece on Knack or have knacked this piece');
  expect(help.textContent).toContain('After our review, you can flag the piece again only if it changes.');
});

it('when she chooses a reason, then the piece is flagged with it', async () => {
  signInAsBea();
  jest.mocked(getMyFlag).mockResolvedValue({ reason: null, message: 'You have not flagged this piece.' });
  jest.mocked(setFlag).mockResolvedValue({ reason: WRONG_MARKET, message: 'Thank you. Our team will look into it.' });
  const dialog = await openFlag();
  fireEvent.click(dialog.getByRole('button', { name: WRONG_MARKET }));
  await waitFor(() => expect(toastTexts()).toContain('Thank you. Our team will look into it.'));
  expect(setFlag).toHaveBeenCalledWith(
    { body: { contentId: world.pieces[0]!.id, userId: bea.id, reason: WRONG_MARKET } },
    expect.objectContaining({ quiet: undefined }),
  );
});

it('when her flag was reviewed and she chooses another reason, then the server’s refusal shows and her reviewed reason stays chosen', async () => {
  signInAsBea();
  jest.mocked(getMyFlag).mockResolvedValue({ reason: UNLAWFUL, message: REVIEWED });
  sendThroughHttp(['setFlag'], () => ({ status: 409, data: { message: REVIEWED, code: 'conflict' } }));
  const dialog = await openFlag();
  expect(dialog.getByRole('button', { name: UNLAWFUL }).getAttribute('aria-pressed')).toBe('true');
  fireEvent.click(dialog.getByRole('button', { name: WRONG_MARKET }));
  await waitFor(() => expect(toastTexts()).toContain(REVIEWED));
  expect(dialog.getByRole('button', { name: UNLAWFUL }).getAttribute('aria-pressed')).toBe('true');
  expect(dialog.getByRole('button', { name: WRONG_MARKET }).getAttribute('aria-pressed')).toBe('false');
});
