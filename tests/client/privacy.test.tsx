/**
 * The settings (Privacy) modal, opened from the detail modal's owner menu: it shows the piece's current setting; a
 * member without a plan above the first is told why, with a link to Pricing, and cannot save; with such a plan (or as
 * an admin) the member chooses one audience of three (exclusive) and hides the count, saves, sees the toast, and the
 * open piece follows; a refusal from the server shows in the modal.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { checkLoggedIn, getAllPlans, getContentById, getSubscription, getUserExt, updateContentSetting } from '../../client/src/api/generated/operations';
import { ApiError } from '../../client/src/api/http';
import { authAnswer, makeUser, storeAccount } from './auth-fixtures';
import { QUIET_CALL } from './call-options';
import { cardLink, detailDialog, renderAt, stubMedia, toastTexts, useJaneWorld } from './profile-fixtures';
import { plansAnswer, subscriptionOf } from './subscription-fixtures';

jest.mock('../../client/src/api/generated/operations');

const world = useJaneWorld();
const NEEDS_PLAN = 'Changing who can see a piece needs a subscription plan above Standard.';
const jane = makeUser();

/** Signs in `user` (Jane by default) with a subscription to `planId` (null: none). */
function signIn(planId: number | null, user = jane) {
  window.localStorage.clear();
  storeAccount('stored-token', user);
  jest.mocked(checkLoggedIn).mockResolvedValue(authAnswer('fresh-token', user));
  jest.mocked(getUserExt).mockResolvedValue({ userExt: { country: null, city: '', state: '', timezone: null, pCredit: 0, sCredit: 0 } });
  jest.mocked(getSubscription).mockResolvedValue({ subscription: planId === null ? null : subscriptionOf(user.id, planId) });
  jest.mocked(getAllPlans).mockResolvedValue(plansAnswer());
  jest.mocked(getContentById).mockImplementation(async ({ path }) => ({ content: world.pieces.find((piece) => piece.id === path.id)! }));
}

/** Jane's profile, `title` opened in the detail modal, then its owner menu's Privacy: the Privacy dialog. */
async function openPrivacy(title = 'Blue Hour', device: 'desktop' | 'phone' = 'desktop') {
  stubMedia();
  const app = renderAt('/jane_doe', device);
  fireEvent.click(await cardLink(title));
  const detail = await detailDialog(title);
  fireEvent.click(await detail.findByRole('button', { name: `Options for ${title}` }));
  fireEvent.click(await screen.findByRole('menuitem', { name: /Privacy/ }));
  const node = await waitFor(
    () => {
      const found = document.querySelector<HTMLElement>('.kn-privacy-modal [role="dialog"]');
      if (!found) throw new Error('no privacy dialog');
      return found;
    },
    { timeout: 5000 },
  );
  const dialog = within(node);
  // The piece and the plan check have answered: the choices show.
  await dialog.findByRole('radio', { name: /Public/ });
  return { ...app, detail, dialog };
}

const radio = (dialog: ReturnType<typeof within>, name: string) => dialog.getByRole('radio', { name: new RegExp(`^${name}`) }) as HTMLInputElement;
const saveButton = (dialog: ReturnType<typeof within>) => dialog.getByRole('button', { name: 'Save' }) as HTMLButtonElement;

describe('without a plan above the first', () => {
  it('when a member with no plan opens Privacy, then she sees the current setting, why she cannot change it and a link to Pricing; Save is off', async () => {
    signIn(null);
    const { dialog } = await openPrivacy();
    expect(radio(dialog, 'Public').checked).toBe(true);
    expect(dialog.getByText(NEEDS_PLAN)).toBeTruthy();
    expect(dialog.getByRole('link', { name: 'See the plans on Pricing' }).getAttribute('href')).toBe('/pricing');
    expect(saveButton(dialog).disabled).toBe(true);
    expect(radio(dialog, 'Followers').disabled).toBe(true);
    expect((dialog.getByRole('checkbox', { name: 'Hide view count' }) as HTMLInputElement).disabled).toBe(true);
    expect(updateContentSetting).not.toHaveBeenCalled();
  });

  it('when she is on the first plan, then the same: the first plan does not include it', async () => {
    signIn(1);
    const { dialog } = await openPrivacy();
    expect(dialog.getByText(NEEDS_PLAN)).toBeTruthy();
    expect(saveButton(dialog).disabled).toBe(true);
  });
});

describe('with a plan above the first', () => {
  it('when she chooses Followers and hides the view count, then the choice is exclusive, Save sends it, the toast shows and the piece follows', async () => {
    signIn(2);
    const photo = world.pieces[0]!;
    const saved = { ...photo, reactedCount: 12, setting: { ...photo.setting, public: false, followers: true, hideViewCount: true } };
    jest.mocked(updateContentSetting).mockResolvedValue({ content: saved, message: 'Success' });
    const { dialog, detail, store } = await openPrivacy();
    expect(dialog.queryByText(NEEDS_PLAN)).toBeNull();

    fireEvent.click(radio(dialog, 'Private'));
    fireEvent.click(radio(dialog, 'Followers'));
    expect(['Public', 'Followers', 'Private'].map((name) => radio(dialog, name).checked)).toEqual([false, true, false]);
    fireEvent.click(dialog.getByRole('checkbox', { name: 'Hide view count' }));
    fireEvent.click(saveButton(dialog));

    await waitFor(() => expect(toastTexts()).toContain('Privacy settings saved'));
    expect(updateContentSetting).toHaveBeenCalledWith(
      { body: { contentId: photo.id, setting: { public: false, private: false, followers: true, hidePlayCount: false, hideViewCount: true } } },
      QUIET_CALL,
    );
    await waitFor(() => expect(store.getState().ui.modal).toBeNull());
    expect(store.getState().contentDetail.content?.setting).toEqual(saved.setting);
    // The owner still sees her count, marked as hidden from everyone else.
    expect(await detail.findByText('hidden from others')).toBeTruthy();
    expect(detail.getByText(/12 views/)).toBeTruthy();
  });

  it('when a song is opened, then the count to hide is its play count', async () => {
    signIn(2);
    const { dialog } = await openPrivacy('Night Drive');
    expect(dialog.getByRole('checkbox', { name: 'Hide play count' })).toBeTruthy();
    expect(dialog.queryByRole('checkbox', { name: 'Hide view count' })).toBeNull();
  });

  it('when the server refuses, then its message shows in the modal, which stays open', async () => {
    signIn(2);
    jest.mocked(updateContentSetting).mockRejectedValue(new ApiError(NEEDS_PLAN, 403, 'forbidden'));
    const { dialog, store } = await openPrivacy();
    fireEvent.click(radio(dialog, 'Private'));
    fireEvent.click(saveButton(dialog));
    expect((await dialog.findByRole('alert')).textContent).toContain(NEEDS_PLAN);
    expect(store.getState().ui.modal).toBe('privacy');
    expect(toastTexts()).not.toContain('Privacy settings saved');
  });
});

describe('who has the owner menu', () => {
  it('when an admin without a plan opens someone else’s piece, then Privacy is offered and open to change', async () => {
    signIn(null, makeUser({ id: '64b0000000000000000000ad', username: 'site_admin', email: 'admin@knack.example', role: 'admin' }));
    const { dialog } = await openPrivacy();
    expect(dialog.queryByText(NEEDS_PLAN)).toBeNull();
    expect(saveButton(dialog).disabled).toBe(false);
  });

  it('when another member opens the piece, then there is no owner menu', async () => {
    signIn(2, makeUser({ id: '64b0000000000000000000b2', username: 'bea_moon', email: 'bea@example.com' }));
    stubMedia();
    renderAt('/jane_doe');
    fireEvent.click(await cardLink('Blue Hour'));
    const detail = await detailDialog('Blue Hour');
    expect(await detail.findByRole('button', { name: /Flag/ })).toBeTruthy();
    expect(detail.queryByRole('button', { name: 'Options for Blue Hour' })).toBeNull();
  });
});
