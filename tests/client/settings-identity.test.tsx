/**
 * How a member is known, on the client: the username and email fields of the settings' personal group (the
 * sign-up's rules on leaving a field and on saving, the server's messages under the field, the side menu with the
 * new name at once, an email change waiting for its link), the emailed link opened while signed in, and a profile
 * or share link with a former username replaced by the one with the name now. The generated operations are
 * mocked; the store, sagas, router and toasts are real.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  cancelEmailChange,
  confirmEmailChange,
  getContentByLink,
  getCountries,
  getProfileByUsername,
  getRegions,
  getUserExt,
  getWalletSummary,
  requestEmailChange,
  updatePersonal,
  updateRegional,
  updateUsername,
} from '../../client/src/api/generated/operations';
import { ApiError } from '../../client/src/api/http';
import { storedAccount } from './auth-fixtures';
import { QUIET_CALL } from './call-options';
import { janeCard, JANE_ID, path, renderAt, toastTexts, useJaneWorld } from './profile-fixtures';
import { jane, renderAsMember, walletSummary } from './wallet-fixtures';

jest.mock('../../client/src/api/generated/operations');

const world = useJaneWorld();

const TAKEN = 'That username is taken. Try another.';
const SENT = 'We sent a link to jane.new@example.com. Your email changes when you open it.';

beforeEach(() => {
  jest.mocked(getCountries).mockResolvedValue({ countries: [] });
  jest.mocked(getRegions).mockResolvedValue({ regions: [] });
  jest.mocked(getWalletSummary).mockResolvedValue(walletSummary({ balance: 0 }));
  jest.mocked(updatePersonal).mockImplementation(async ({ body }) => ({ message: 'Success', user: { ...jane(), ...body } }));
  jest.mocked(updateUsername).mockImplementation(async ({ body }) => ({ message: 'Success', user: { ...jane(), username: body.username } }));
  jest.mocked(requestEmailChange).mockImplementation(async ({ body }) => ({
    message: `We sent a link to ${body.email}. Your email changes when you open it.`,
    user: { ...jane(), pendingEmail: body.email },
  }));
});

/** The personal group of the settings page, with its username and email fields. */
async function personalGroup() {
  const form = within(await screen.findByRole('form', { name: 'About you' }));
  return {
    form,
    username: form.getByLabelText('Username') as HTMLInputElement,
    email: form.getByLabelText('Email') as HTMLInputElement,
    save: () => fireEvent.click(form.getByRole('button', { name: 'Save' })),
  };
}

const sideMenuName = () => document.querySelector('.kn-account__name')?.textContent;

describe('the personal group’s username and email', () => {
  it('when a name or an address breaks the sign-up’s rules, then its message shows on leaving the field and on saving, and nothing is sent', async () => {
    await renderAsMember('/user-setting');
    const { form, username, email, save } = await personalGroup();
    expect([username.value, email.value]).toEqual(['jane_doe', 'jane@example.com']);

    fireEvent.change(username, { target: { value: 'jane' } });
    fireEvent.blur(username);
    expect((await form.findByRole('alert')).textContent).toBe('Sorry, your username must be between 6 and 30 characters long.');

    fireEvent.change(username, { target: { value: 'jane-doe' } });
    fireEvent.change(email, { target: { value: 'jane@' } });
    save();
    await waitFor(() =>
      expect(form.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([
        'Usernames may use letters, numbers, underscores and dots only.',
        'You should input an correct email',
      ]),
    );
    fireEvent.change(email, { target: { value: ' ' } });
    fireEvent.blur(email);
    await waitFor(() => expect(form.getAllByRole('alert').map((alert) => alert.textContent)).toEqual(['You should input an email']));
    expect(updatePersonal).not.toHaveBeenCalled();
    expect(updateUsername).not.toHaveBeenCalled();
    expect(requestEmailChange).not.toHaveBeenCalled();
  });

  it('when Jane saves a new username, then it is sent as sign-up normalizes it, and the side menu and her stored account use it at once', async () => {
    await renderAsMember('/user-setting');
    expect(sideMenuName()).toBe('jane doe');
    const { username, save } = await personalGroup();
    fireEvent.change(username, { target: { value: ' Jane Sings ' } });
    save();
    await waitFor(() => expect(toastTexts()).toContain('Success'));
    expect(jest.mocked(updateUsername).mock.calls).toEqual([[{ path: { id: JANE_ID }, body: { username: 'jane_sings' } }, QUIET_CALL]]);
    expect(requestEmailChange).not.toHaveBeenCalled();
    await waitFor(() => expect(sideMenuName()).toBe('jane sings'));
    expect(username.value).toBe('jane_sings');
    expect(storedAccount()?.user.username).toBe('jane_sings');
  });

  it('when the server says the name is taken, then its message shows under the field and the typed name stays', async () => {
    jest.mocked(updateUsername).mockRejectedValue(new ApiError(TAKEN, 400, 'bad_request', [{ path: 'username', message: TAKEN }]));
    await renderAsMember('/user-setting');
    const { form, username, save } = await personalGroup();
    fireEvent.change(username, { target: { value: 'bea_moon' } });
    save();
    expect((await form.findByRole('alert')).textContent).toBe(TAKEN);
    expect(username.value).toBe('bea_moon');
    expect(sideMenuName()).toBe('jane doe');
  });

  it('when Jane asks for a new email, then the form says where the link went and shows the waiting address; her email stays until it is opened', async () => {
    await renderAsMember('/user-setting');
    const { form, email, save } = await personalGroup();
    expect(form.queryByTestId('pending-email')).toBeNull();
    expect(form.queryByLabelText('Current password')).toBeNull();
    fireEvent.change(email, { target: { value: ' Jane.New@Example.com ' } });
    fireEvent.change(form.getByLabelText('Current password'), { target: { value: 'Str0ng!pass' } });
    save();
    await waitFor(() => expect(toastTexts()).toContain(SENT));
    expect(jest.mocked(requestEmailChange).mock.calls).toEqual([
      [{ path: { id: JANE_ID }, body: { email: 'jane.new@example.com', password: 'Str0ng!pass' } }, QUIET_CALL],
    ]);
    expect(updateUsername).not.toHaveBeenCalled();
    expect((await form.findByTestId('pending-email')).textContent).toBe(SENT);
    expect(email.value).toBe('jane@example.com');
  });

  it('when the email is changed, then the form asks for the current password: without it nothing is sent, and a wrong one shows the server’s message under it', async () => {
    const WRONG = 'Incorrect password.';
    jest.mocked(requestEmailChange).mockRejectedValue(new ApiError(WRONG, 400, 'bad_request', [{ path: 'password', message: WRONG }]));
    await renderAsMember('/user-setting');
    const { form, email, save } = await personalGroup();
    fireEvent.change(email, { target: { value: 'jane.new@example.com' } });
    save();
    expect((await form.findByRole('alert')).textContent).toBe('Please input password');
    expect(updatePersonal).not.toHaveBeenCalled();
    expect(requestEmailChange).not.toHaveBeenCalled();

    fireEvent.change(form.getByLabelText('Current password'), { target: { value: 'Wr0ng!pass' } });
    save();
    await waitFor(() => expect(form.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([WRONG]));
    expect(email.value).toBe('jane.new@example.com');
    expect(form.queryByTestId('pending-email')).toBeNull();
  });

  it('when Jane saves a new bio, then her profile, seen a moment before, shows it', async () => {
    // Another page of the app, as a link inside it would open it (the browser's history, then the router).
    const openInApp = (to: string) =>
      act(() => {
        window.history.pushState(null, '', to);
        window.dispatchEvent(new PopStateEvent('popstate'));
      });
    await renderAsMember('/jane_doe');
    expect(await screen.findByText('Songs and photos from Austin.', {}, { timeout: 15_000 })).toBeTruthy();
    openInApp('/user-setting');
    const { form, save } = await personalGroup();
    fireEvent.change(form.getByLabelText('Bio'), { target: { value: 'New songs every Friday.' } });
    jest.mocked(getProfileByUsername).mockResolvedValue(janeCard({ bio: 'New songs every Friday.' }));
    save();
    await waitFor(() => expect(toastTexts()).toContain('Success'));
    expect(updatePersonal).toHaveBeenCalledWith({ path: { id: JANE_ID }, body: expect.objectContaining({ bio: 'New songs every Friday.' }) }, QUIET_CALL);

    openInApp('/jane_doe');
    expect(await screen.findByText('New songs every Friday.')).toBeTruthy();
    expect(screen.queryByText('Songs and photos from Austin.')).toBeNull();
    // Two pages this file loads first (their lazy chunks): slow on a busy machine.
  }, 60_000);

  it('when the cancel link mailed to her old address is opened in a browser signed in as Jane, then it is signed out and says what happened', async () => {
    const UNDONE =
      'The email change is undone: your email is jane@example.com again. Everyone is signed out of your account. We emailed you a link to choose a new password.';
    jest.mocked(cancelEmailChange).mockResolvedValue({ message: UNDONE, userId: JANE_ID, email: 'jane@example.com' });
    await renderAsMember('/confirm?token=cancel-token&action=cancel-email');
    await waitFor(() => expect(toastTexts()).toContain(UNDONE));
    expect(jest.mocked(cancelEmailChange).mock.calls[0]?.[0]).toEqual({ body: { token: 'cancel-token' } });
    await waitFor(() => expect(path()).toBe('/'));
    await waitFor(() => expect(storedAccount()).toBeNull());
  });

  it('when the link is opened in a browser signed in as Jane, then her email changes there too and her settings show it', async () => {
    const waiting = { ...jane(), pendingEmail: 'jane.new@example.com' };
    let sessionReloaded!: () => void;
    const reloaded = new Promise<void>((resolve) => (sessionReloaded = resolve));
    jest.mocked(confirmEmailChange).mockImplementation(async () => {
      await reloaded;
      return { message: 'Your email is now jane.new@example.com.', userId: JANE_ID, email: 'jane.new@example.com' };
    });
    await renderAsMember('/confirm?token=emailed-token&action=email', waiting);
    sessionReloaded();
    await waitFor(() => expect(toastTexts()).toContain('Your email is now jane.new@example.com.'));
    expect(jest.mocked(confirmEmailChange).mock.calls[0]?.[0]).toEqual({ body: { token: 'emailed-token' } });
    await waitFor(() => expect(path()).toBe('/user-setting'));
    const { form, email } = await personalGroup();
    expect(email.value).toBe('jane.new@example.com');
    expect(form.queryByTestId('pending-email')).toBeNull();
  });
});

describe('where Jane is from', () => {
  it('when she saves a new city, then the side menu’s location line follows at once', async () => {
    const sideMenu = () => within(screen.getByRole('navigation', { name: 'Side menu' }));
    await renderAsMember('/user-setting');
    expect(await sideMenu().findByText('Austin, Texas')).toBeTruthy();
    const form = within(await screen.findByRole('form', { name: 'Where you are from' }));
    await waitFor(() => expect((form.getByLabelText('City') as HTMLInputElement).value).toBe('Austin'));
    const dallas = { country: 'US', state: 'Texas', city: 'Dallas', timezone: 'America/Chicago', pCredit: 0, sCredit: 0 };
    jest.mocked(updateRegional).mockResolvedValue({ userExt: dallas });
    jest.mocked(getUserExt).mockResolvedValue({ userExt: dallas });
    fireEvent.change(form.getByLabelText('City'), { target: { value: 'Dallas' } });
    fireEvent.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(toastTexts()).toContain('Success'));
    expect(updateRegional).toHaveBeenCalledWith(
      { path: { id: JANE_ID }, body: { country: 'US', state: 'Texas', city: 'Dallas', timezone: 'America/Chicago' } },
      QUIET_CALL,
    );
    expect(await sideMenu().findByText('Dallas, Texas')).toBeTruthy();
  });
});

describe('links with a former username', () => {
  beforeEach(() => {
    // The server answers for Jane's former name with Jane as she is now.
    jest.mocked(getProfileByUsername).mockImplementation(async ({ path: { username } }) => {
      if (username !== 'jane_before' && username !== 'jane_doe') throw new ApiError('This member does not exist.', 404, 'not_found');
      return janeCard();
    });
    jest
      .mocked(getContentByLink)
      .mockImplementation(async ({ path: { slug } }) => ({ content: world.pieces.find((piece) => piece.link === `/jane_doe-${slug}`)! }));
  });

  it('when a profile link has the old name, then the address becomes the one with her name now', async () => {
    renderAt('/jane_before/photos?ref=chat');
    await waitFor(() => expect(path()).toBe('/jane_doe/photos'));
    expect(window.location.search).toBe('?ref=chat');
    expect(await screen.findByRole('heading', { level: 1, name: 'Jane Doe' })).toBeTruthy();
  });

  it('when a share link has the old name, then the piece opens and the address is its link with the name now', async () => {
    const piece = world.pieces[0]!;
    renderAt(piece.link.replace('/jane_doe-', '/jane_before-'));
    await waitFor(() => expect(path()).toBe(piece.link));
    expect(await screen.findByRole('dialog', { name: piece.title }, { timeout: 5000 })).toBeTruthy();
  });
});
