/**
 * The `{name} register` modal, opened by the link mailed after a visitor's Top 50 upload: the sign-up's rules and
 * messages for the username and password, the server's refusals under their fields, and a registration that signs
 * the new member in and takes the link's token off the chart's address.
 */
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { getTop50Chart, signupOrland } from '../../client/src/api/generated/operations';
import { sentEventNames } from './event-fixtures';
import { ApiError } from '../../client/src/api/http';
import { modalOpened } from '../../client/src/lib/ui';
import { authAnswer, makeUser, setViewport } from './auth-fixtures';
import { homeHeading, mockPublicCalls, renderApp } from './auth-app';
import { janeCard } from './profile-fixtures';
import { findDialog, toastTexts } from './upload-fixtures';

jest.mock('../../client/src/api/generated/operations');

const WAITING_ID = '64b0000000000000000000cc';
const PASSWORD = 'Str0ng!pass';

beforeEach(() => {
  jest.resetAllMocks();
  setViewport(1280, 800);
  mockPublicCalls();
});

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

async function openRegister() {
  const app = renderApp('/');
  await homeHeading();
  act(() => void app.store.dispatch(modalOpened({ name: 'artist-register', userId: WAITING_ID, token: 'mailed-token', artistName: 'jane_doe' })));
  const dialog = await findDialog('jane_doe register');
  return { ...app, dialog };
}

describe('the {name} register modal', () => {
  it('when sent empty or against the sign-up rules, then the sign-up’s messages show and nothing is sent', async () => {
    const { dialog } = await openRegister();
    expect(dialog.getByText("Choose a username and a password: your song joins jane_doe's Top 50 as soon as you do.")).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'Register and publish my song' }));
    expect(await dialog.findByText('You should input your username.')).toBeTruthy();
    expect(dialog.getByText('You should input your password.')).toBeTruthy();
    expect(dialog.getByText('You should input your confirm password.')).toBeTruthy();

    type('Username', 'abc');
    type('Password', 'weak');
    type('Confirm password', 'weak');
    fireEvent.click(dialog.getByRole('button', { name: 'Register and publish my song' }));
    expect(await dialog.findByText('Sorry, your username must be between 6 and 30 characters long.')).toBeTruthy();
    expect(dialog.getByText('Password should include at least one uppercase, numeric, special charater and also should have 8 or more length')).toBeTruthy();

    type('Username', 'good_name');
    type('Password', PASSWORD);
    type('Confirm password', `${PASSWORD}x`);
    fireEvent.click(dialog.getByRole('button', { name: 'Register and publish my song' }));
    expect((await dialog.findAllByText("Those passwords didn't match. Try again.")).length).toBeGreaterThan(0);
    expect(signupOrland).not.toHaveBeenCalled();
  });

  it('when the server refuses the username, then its message shows under the field; a dead link shows above the form', async () => {
    jest
      .mocked(signupOrland)
      .mockRejectedValueOnce(
        new ApiError('That username is taken. Try another.', 400, 'bad_request', [{ path: 'username', message: 'That username is taken. Try another.' }]),
      )
      .mockRejectedValueOnce(
        new ApiError('This registration link is invalid or has expired.', 400, 'bad_request', [
          { path: 'token', message: 'This registration link is invalid or has expired.' },
        ]),
      );
    const { dialog } = await openRegister();
    type('Username', 'taken_name');
    type('Password', PASSWORD);
    type('Confirm password', PASSWORD);
    fireEvent.click(dialog.getByRole('button', { name: 'Register and publish my song' }));
    expect(await dialog.findByText('That username is taken. Try another.')).toBeTruthy();
    type('Username', 'free_name');
    fireEvent.click(dialog.getByRole('button', { name: 'Register and publish my song' }));
    expect(await dialog.findByText('This registration link is invalid or has expired.')).toBeTruthy();
    expect(dialog.getByRole('button', { name: 'New link' })).toBeTruthy();
  });

  it('when registered, then the member is signed in, the modal closes, and the chart loses the link from its address', async () => {
    const member = makeUser({ id: WAITING_ID, username: 'new_fan' });
    jest.mocked(signupOrland).mockResolvedValue(authAnswer('fresh-token', member, 'Successfully created an account.'));
    jest.mocked(getTop50Chart).mockResolvedValue({ artist: janeCard(), contents: [] });
    const { store } = renderApp(`/jane_doe-music-top-50/${WAITING_ID}?token=mailed-token`);
    const dialog = await findDialog('jane_doe register');
    type('Username', ' New Fan ');
    type('Password', PASSWORD);
    type('Confirm password', PASSWORD);
    fireEvent.click(dialog.getByRole('button', { name: 'Register and publish my song' }));
    await waitFor(() => expect(store.getState().auth.isLoggedIn).toBe(true));
    // The account the upload left waiting becomes theirs (a sign-up), and they are signed in.
    expect(await sentEventNames()).toEqual([{ name: 'signup' }, { name: 'login' }]);
    expect(jest.mocked(signupOrland).mock.calls[0]![0].body).toEqual({
      userId: WAITING_ID,
      token: 'mailed-token',
      username: 'new_fan',
      password: PASSWORD,
      passwordConfirm: PASSWORD,
    });
    await waitFor(() => expect(store.getState().ui.modal).toBeNull());
    await waitFor(() => expect(window.location.pathname + window.location.search).toBe('/jane_doe-music-top-50'));
    await waitFor(() => expect(toastTexts()).toContain('Successfully created an account.'));
    expect(store.getState().auth.user?.username).toBe('new_fan');
  });
});
