/**
 * The auth modals in the whole SPA: signup in two steps with every exact message, the
 * username check on blur, the mismatch marking both fields, login answers (no token: 'Check Your Email'),
 * forgot and reset password. The generated operations are mocked; the store, sagas and router are real.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  getAuthProviders,
  getUserByEmail,
  googleSignin,
  getUserByUsername,
  requestPasswordReset,
  resetPassword,
  signin,
  signup,
} from '../../client/src/api/generated/operations';
import { ApiError } from '../../client/src/api/http';
import { AUTH_MESSAGES } from '../../client/src/features/auth';
import { googleCredentialReceived } from '../../client/src/features/auth/testing';
import { modalOpened } from '../../client/src/lib/ui';
import { authAnswer, notFound, setViewport, storedAccount } from './auth-fixtures';
import { homeHeading, mockPublicCalls, renderApp } from './auth-app';
import { QUIET_FLOW_CALL } from './call-options';
import { sentEventNames } from './event-fixtures';

jest.mock('../../client/src/api/generated/operations');

const MISMATCH = "Those passwords didn't match. Try again.";

beforeEach(async () => {
  jest.resetAllMocks();
  setViewport(1280, 800);
  mockPublicCalls();
  jest.mocked(getAuthProviders).mockResolvedValue({ google: null, facebook: null });
  jest.mocked(getUserByEmail).mockRejectedValue(notFound());
  jest.mocked(getUserByUsername).mockRejectedValue(notFound());
  // Product events an earlier test left waiting are not this test's.
  await sentEventNames();
});

async function openModal(name: 'login' | 'signup' | 'forgot-password') {
  const app = renderApp('/');
  await homeHeading();
  const label = { login: 'Login', signup: 'Create account', 'forgot-password': null }[name];
  if (label) fireEvent.click(within(screen.getByRole('banner')).getByRole('button', { name: label }));
  else act(() => void app.store.dispatch(modalOpened('forgot-password')));
  return app;
}

/** The open modal (queries inside it: the page behind has buttons with the same names). */
function dialog() {
  return within(screen.getByRole('dialog'));
}

function field(label: string): HTMLInputElement {
  return screen.getByLabelText(label);
}

function type(label: string, value: string) {
  fireEvent.change(field(label), { target: { value } });
}

function formItemOf(label: string): HTMLElement {
  return field(label).closest('.ant-form-item') as HTMLElement;
}

async function toStepTwo(email = 'new.person@example.com') {
  await openModal('signup');
  await screen.findByRole('heading', { name: 'Create your account' });
  type('Email', `  ${email.toUpperCase()} `);
  fireEvent.click(dialog().getByRole('button', { name: 'Continue' }));
  await screen.findByRole('heading', { name: 'Tell us about you' });
}

describe('signup step 1', () => {
  it('when the email is empty or malformed, then the exact messages show', async () => {
    await openModal('signup');
    await screen.findByRole('heading', { name: 'Create your account' });
    fireEvent.click(dialog().getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('You should input an email')).toBeTruthy();
    type('Email', 'not-an-email');
    fireEvent.blur(field('Email'));
    expect(await screen.findByText('You should input an correct email')).toBeTruthy();
    expect(getUserByEmail).not.toHaveBeenCalled();
  });

  it('when the email belongs to an account, then signup closes and login opens prefilled with it', async () => {
    jest.mocked(getUserByEmail).mockResolvedValue({ exists: true });
    const { store } = await openModal('signup');
    await screen.findByRole('heading', { name: 'Create your account' });
    type('Email', ' Jane@Example.com ');
    fireEvent.click(dialog().getByRole('button', { name: 'Continue' }));
    await screen.findByRole('heading', { name: 'Log in to Knack' });
    expect(getUserByEmail).toHaveBeenCalledWith({ path: { email: 'jane@example.com' } }, QUIET_FLOW_CALL);
    expect(store.getState().ui.modal).toBe('login');
    expect(field('Email').value).toBe('jane@example.com');
    expect(screen.queryByRole('heading', { name: 'Create your account' })).toBeNull();
  });

  it('when the look-up answers 404 (or fails), then the details form appears for the normalized email', async () => {
    await toStepTwo('New.Person@Example.com');
    expect(screen.getByText('new.person@example.com')).toBeTruthy();
    for (const label of ['First name', 'Last name', 'Username', 'Password', 'Confirm password']) expect(field(label)).toBeTruthy();
  });
});

describe('signup step 2', () => {
  it('when submitted empty, then each field shows its exact required message', async () => {
    await toStepTwo();
    fireEvent.click(dialog().getByRole('button', { name: 'Create account' }));
    for (const message of [
      'You should input your first name.',
      'You should input your last name.',
      'You should input your username.',
      'You should input your password.',
      'You should input your confirm password.',
    ]) {
      expect(await screen.findByText(message)).toBeTruthy();
    }
    expect(signup).not.toHaveBeenCalled();
  });

  it('when the username is too short or too long, or the password too weak, then the exact messages show', async () => {
    await toStepTwo();
    type('Username', 'abc');
    fireEvent.blur(field('Username'));
    expect(await screen.findByText('Sorry, your username must be between 6 and 30 characters long.')).toBeTruthy();
    type('Username', 'a'.repeat(31));
    fireEvent.blur(field('Username'));
    expect(await screen.findByText('Sorry, your username must be between 6 and 30 characters long.')).toBeTruthy();
    type('Password', 'password1');
    fireEvent.blur(field('Password'));
    expect(
      await screen.findByText('Password should include at least one uppercase, numeric, special charater and also should have 8 or more length'),
    ).toBeTruthy();
    expect(getUserByUsername).not.toHaveBeenCalled(); // the shape is checked before asking the server
  });

  it('when the username is taken, then leaving the field shows the taken message (normalized: lower case, spaces to underscores)', async () => {
    jest.mocked(getUserByUsername).mockResolvedValue({ exists: true });
    await toStepTwo();
    type('Username', '  Taken Name ');
    fireEvent.blur(field('Username'));
    expect(await screen.findByText('That username is taken. Try another.')).toBeTruthy();
    expect(field('Username').value).toBe('taken_name');
    expect(getUserByUsername).toHaveBeenCalledWith({ path: { username: 'taken_name' } }, expect.objectContaining({ quiet: expect.any(String) }));
  });

  it('when the passwords differ, then both fields are marked with the mismatch message', async () => {
    await toStepTwo();
    type('First name', 'New');
    type('Last name', 'Person');
    type('Username', 'new_person');
    type('Password', 'Str0ng!pass');
    type('Confirm password', 'Str0ng!pasS');
    fireEvent.click(dialog().getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(screen.getAllByText(MISMATCH)).toHaveLength(2));
    expect(formItemOf('Password').className).toContain('ant-form-item-has-error');
    expect(formItemOf('Confirm password').className).toContain('ant-form-item-has-error');
    expect(signup).not.toHaveBeenCalled();
    // Fixing the confirmation clears the mark on both.
    type('Confirm password', 'Str0ng!pass');
    await waitFor(() => expect(screen.queryAllByText(MISMATCH)).toHaveLength(0));
  });

  it('when every rule passes, then the account is created and Check Your Email shows with the junk mail hint', async () => {
    jest.mocked(signup).mockResolvedValue(authAnswer(null, null, 'Check Your Email'));
    await toStepTwo();
    type('First name', ' New ');
    type('Last name', 'Person');
    type('Username', 'New Person');
    type('Password', 'Str0ng!pass');
    type('Confirm password', 'Str0ng!pass');
    fireEvent.click(dialog().getByRole('button', { name: 'Create account' }));
    expect(await screen.findByRole('heading', { name: 'Check Your Email' })).toBeTruthy();
    expect(screen.getByText(/junk mail/)).toBeTruthy();
    expect(signup).toHaveBeenCalledWith(
      {
        body: {
          email: 'new.person@example.com',
          firstName: 'New',
          lastName: 'Person',
          fullName: 'New Person',
          username: 'new_person',
          password: 'Str0ng!pass',
          passwordConfirm: 'Str0ng!pass',
        },
      },
      QUIET_FLOW_CALL,
    );
    expect(storedAccount()).toBeNull(); // not signed in before activation
    expect(await sentEventNames()).toEqual([{ name: 'signup' }]);
  });

  it('when the server refuses a field, then its message shows under that field', async () => {
    jest
      .mocked(signup)
      .mockRejectedValue(
        new ApiError('That username is taken. Try another.', 400, 'bad_request', [{ path: 'username', message: 'That username is taken. Try another.' }]),
      );
    await toStepTwo();
    type('First name', 'New');
    type('Last name', 'Person');
    type('Username', 'new_person');
    type('Password', 'Str0ng!pass');
    type('Confirm password', 'Str0ng!pass');
    fireEvent.click(dialog().getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(formItemOf('Username').textContent).toContain('That username is taken. Try another.'));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('login', () => {
  it('when submitted empty, then Please input email and Please input password show', async () => {
    await openModal('login');
    await screen.findByRole('heading', { name: 'Log in to Knack' });
    fireEvent.click(dialog().getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Please input email')).toBeTruthy();
    expect(await screen.findByText('Please input password')).toBeTruthy();
    expect(signin).not.toHaveBeenCalled();
  });

  it('when the account is not activated (no token), then Check Your Email shows and nobody is signed in', async () => {
    jest.mocked(signin).mockResolvedValue(authAnswer(null, null, 'Check Your Email'));
    const { store } = await openModal('login');
    await screen.findByRole('heading', { name: 'Log in to Knack' });
    type('Email', 'Jane@Example.com');
    type('Password', 'Str0ng!pass');
    fireEvent.click(dialog().getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('heading', { name: 'Check Your Email' })).toBeTruthy();
    expect(screen.getByText(/junk mail/)).toBeTruthy();
    expect(signin).toHaveBeenCalledWith({ body: { email: 'jane@example.com', password: 'Str0ng!pass' } }, QUIET_FLOW_CALL);
    expect(store.getState().auth.isLoggedIn).toBe(false);
    expect(storedAccount()).toBeNull();
  });

  it('when the password is wrong, then the server message shows in the modal and the inputs are usable again', async () => {
    jest.mocked(signin).mockRejectedValue(new ApiError('Incorrect email or password.', 401, 'unauthorized'));
    await openModal('login');
    await screen.findByRole('heading', { name: 'Log in to Knack' });
    type('Email', 'jane@example.com');
    type('Password', 'wrong');
    fireEvent.click(dialog().getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Incorrect email or password.')).toBeTruthy();
    expect(field('Email').disabled).toBe(false);
  });

  it('when the login works, then the modal closes, the account is stored and the visitor goes to /explore', async () => {
    jest.mocked(signin).mockResolvedValue(authAnswer('access-1'));
    const push = jest.spyOn(window.history, 'pushState');
    const { store } = await openModal('login');
    await screen.findByRole('heading', { name: 'Log in to Knack' });
    type('Email', 'jane@example.com');
    type('Password', 'Str0ng!pass');
    fireEvent.click(dialog().getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(store.getState().auth.isLoggedIn).toBe(true));
    expect(store.getState().ui.modal).toBeNull();
    expect(store.getState().auth.reactedCount).toBe(2);
    expect(storedAccount()?.token).toBe('access-1');
    await waitFor(() => expect(push.mock.calls.some((call) => call[2] === '/explore')).toBe(true));
    // Explore is not built yet: it falls back home, now with the member's navigation.
    expect(await screen.findByRole('button', { name: 'Logout' })).toBeTruthy();
    push.mockRestore();
    expect(await sentEventNames()).toEqual([{ name: 'login' }]);
  });

  it('when sending, then the inputs are disabled', async () => {
    let finish: (value: ReturnType<typeof authAnswer>) => void = () => undefined;
    jest.mocked(signin).mockImplementation(() => new Promise((resolve) => (finish = resolve)));
    await openModal('login');
    await screen.findByRole('heading', { name: 'Log in to Knack' });
    type('Email', 'jane@example.com');
    type('Password', 'Str0ng!pass');
    fireEvent.click(dialog().getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(field('Email').disabled).toBe(true));
    expect(field('Password').disabled).toBe(true);
    await act(async () => finish(authAnswer(null, null, 'Check Your Email')));
    expect(await screen.findByRole('heading', { name: 'Check Your Email' })).toBeTruthy();
  });

  it('when Forgot password? and Create account are clicked, then those modals open', async () => {
    await openModal('login');
    await screen.findByRole('heading', { name: 'Log in to Knack' });
    fireEvent.click(dialog().getByRole('button', { name: 'Forgot password?' }));
    expect(await screen.findByRole('heading', { name: 'Forgot password?' })).toBeTruthy();
    fireEvent.click(dialog().getByRole('button', { name: 'Log in' }));
    await screen.findByRole('heading', { name: 'Log in to Knack' });
    fireEvent.click(dialog().getByRole('button', { name: 'Create account' }));
    expect(await screen.findByRole('heading', { name: 'Create your account' })).toBeTruthy();
  });
});

describe('forgot and reset password', () => {
  it('when the forgot form is sent, then Email Sent shows with the junk mail hint', async () => {
    jest.mocked(requestPasswordReset).mockResolvedValue({ message: 'Email Sent' });
    await openModal('forgot-password');
    await screen.findByRole('heading', { name: 'Forgot password?' });
    fireEvent.click(dialog().getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('Please input email')).toBeTruthy();
    type('Email', ' Jane@Example.com');
    fireEvent.click(dialog().getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('heading', { name: 'Email Sent' })).toBeTruthy();
    expect(screen.getByText(/junk mail/)).toBeTruthy();
    expect(requestPasswordReset).toHaveBeenCalledWith({ body: { email: 'jane@example.com' } }, QUIET_FLOW_CALL);
    expect(await sentEventNames()).toEqual([{ name: 'forgot_password' }]);
  });

  it('when the emailed link is opened, then the reset modal shows over home, checks the rules, and success opens login', async () => {
    jest.mocked(resetPassword).mockResolvedValue({ message: 'Your password has been reset. Log in with your new password.' });
    const { store } = renderApp('/auth/reset-password?token=reset-token-1');
    expect(await screen.findByRole('heading', { name: 'Reset your password' })).toBeTruthy();
    await homeHeading();
    expect(window.location.pathname).toBe('/');
    expect(window.location.search).toBe(''); // the token left the address bar
    fireEvent.click(dialog().getByRole('button', { name: 'Set new password' }));
    expect(await screen.findAllByText('Please input password')).toHaveLength(2);
    type('New password', 'weak');
    fireEvent.blur(field('New password'));
    expect(await screen.findByText(AUTH_MESSAGES.passwordRule)).toBeTruthy();
    type('New password', 'N3w!passw0rd');
    type('Confirm new password', 'N3w!passw0rX');
    fireEvent.click(dialog().getByRole('button', { name: 'Set new password' }));
    await waitFor(() => expect(screen.getAllByText('Password and confirmed password should be match.')).toHaveLength(2));
    type('Confirm new password', 'N3w!passw0rd');
    fireEvent.click(dialog().getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByRole('heading', { name: 'Log in to Knack' })).toBeTruthy();
    expect(screen.getByText('Your password has been reset. Log in with your new password.')).toBeTruthy();
    expect(resetPassword).toHaveBeenCalledWith(
      { body: { token: 'reset-token-1', newPassword: 'N3w!passw0rd', passwordConfirm: 'N3w!passw0rd' } },
      QUIET_FLOW_CALL,
    );
    expect(store.getState().ui.modal).toBe('login');
    expect(await sentEventNames()).toEqual([{ name: 'reset_password' }]);
  });

  it('when the reset link is invalid or expired, then the server message shows', async () => {
    jest.mocked(resetPassword).mockRejectedValue(new ApiError('This reset link is invalid or has expired.', 400, 'bad_request'));
    renderApp('/auth/reset-password?token=old');
    await screen.findByRole('heading', { name: 'Reset your password' });
    type('New password', 'N3w!passw0rd');
    type('Confirm new password', 'N3w!passw0rd');
    fireEvent.click(dialog().getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('This reset link is invalid or has expired.')).toBeTruthy();
  });
});

describe('phone', () => {
  it('when the screen is narrower than 600 px, then the auth modal takes the whole screen', async () => {
    setViewport(390, 844);
    await openModal('login');
    await screen.findByRole('heading', { name: 'Log in to Knack' });
    expect(document.querySelector('.kn-auth-modal--phone .ant-modal')).toBeTruthy();
  });
});

describe('social sign-in', () => {
  async function openLoginWithProviders() {
    const app = renderApp('/');
    await homeHeading();
    fireEvent.click(within(screen.getByRole('banner')).getByRole('button', { name: 'Login' }));
    await screen.findByRole('heading', { name: 'Log in to Knack' });
    // The providers' answer is in (the modal's social buttons are read through the cache).
    const answered = () =>
      Object.values(app.store.getState().api.queries).some((read) => read?.endpointName === 'getAuthProviders' && read.status === 'fulfilled');
    await waitFor(() => expect(answered()).toBe(true));
    return app;
  }

  it('when no provider is configured, then no social button shows and no SDK loads', async () => {
    await openLoginWithProviders();
    expect(screen.queryByRole('button', { name: 'Continue with Facebook' })).toBeNull();
    expect(screen.queryByLabelText('Continue with Google')).toBeNull();
    expect(document.querySelector('script[src*="accounts.google.com"], script[src*="connect.facebook.net"]')).toBeNull();
  });

  it('when Google and Facebook are configured, then their buttons show and only then the Google script loads', async () => {
    jest.mocked(getAuthProviders).mockResolvedValue({ google: { clientId: 'client-1.apps.googleusercontent.com' }, facebook: { appId: '1234' } });
    await openLoginWithProviders();
    expect(await dialog().findByRole('button', { name: /Continue with Facebook/ })).toBeTruthy();
    expect(dialog().getByLabelText('Continue with Google')).toBeTruthy();
    await waitFor(() => expect(document.querySelector('script[src="https://accounts.google.com/gsi/client"]')).toBeTruthy());
  });

  it('when the server refuses the Google credential, then the toast says Google Auth Error: and the message', async () => {
    jest.mocked(googleSignin).mockRejectedValue(new ApiError('The Google sign-in could not be verified.', 401, 'unauthorized'));
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { store } = await openLoginWithProviders();
    act(() => void store.dispatch(googleCredentialReceived('id-token')));
    expect(await screen.findByText('Google Auth Error: The Google sign-in could not be verified.')).toBeTruthy();
    expect(googleSignin).toHaveBeenCalledWith({ body: { credential: 'id-token' } }, QUIET_FLOW_CALL);
    expect(store.getState().auth.isLoggedIn).toBe(false);
    error.mockRestore();
  });
});
