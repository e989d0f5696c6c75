import type { CallOptions } from '../../../api/cache';
import { useEffect, useRef, useState } from 'react';
import Button from 'antd/es/button';
import FacebookFilled from '@ant-design/icons/es/icons/FacebookFilled';
import { useGetAuthProvidersQuery } from '../../../api/generated/endpoints';
import { useAppDispatch } from '../../../lib/storeHooks';
import { notify } from '../../../components/notify';
import { AUTH_MESSAGES } from '../auth.rules';
import { facebookLoginReceived, googleCredentialReceived } from '../auth.slice';
import { loadFacebook, loadGoogle } from './socialSdk';

function fail(prefix: string, error: unknown) {
  const message = `${prefix} ${error instanceof Error ? error.message : String(error)}`;
  console.error(message);
  notify('error', message);
}

/** Google's own button (Identity Services renders it); the ID token goes to auth/google-signin. */
function GoogleButton({ clientId }: { clientId: string }) {
  const dispatch = useAppDispatch();
  const holder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let live = true;
    loadGoogle()
      .then((google) => {
        if (!live || !holder.current) return;
        google.initialize({
          client_id: clientId,
          ux_mode: 'popup',
          callback: (response) => {
            if (response.credential) dispatch(googleCredentialReceived(response.credential));
            else fail(AUTH_MESSAGES.googleError, 'no credential was returned');
          },
        });
        google.renderButton(holder.current, {
          theme: 'outline',
          size: 'large',
          text: 'continue_with',
          shape: 'pill',
          width: holder.current.clientWidth || 320,
        });
      })
      .catch((error: unknown) => fail(AUTH_MESSAGES.googleError, error));
    return () => {
      live = false;
    };
  }, [clientId, dispatch]);
  return <div ref={holder} className="kn-auth__google" aria-label="Continue with Google" />;
}

/** Facebook login popup; the access token goes to auth/facebook-signin. */
function FacebookButton({ appId }: { appId: string }) {
  const dispatch = useAppDispatch();
  const [busy, setBusy] = useState(false);
  const onClick = async () => {
    setBusy(true);
    try {
      const fb = await loadFacebook(appId);
      fb.login(
        (response) => {
          setBusy(false);
          const auth = response.authResponse;
          if (auth?.accessToken) dispatch(facebookLoginReceived({ accessToken: auth.accessToken, userID: auth.userID }));
          else fail(AUTH_MESSAGES.facebookError, 'the login was cancelled');
        },
        { scope: 'public_profile,email' },
      );
    } catch (error) {
      setBusy(false);
      fail(AUTH_MESSAGES.facebookError, error);
    }
  };
  return (
    <Button size="large" block shape="round" icon={<FacebookFilled />} loading={busy} onClick={() => void onClick()} className="kn-auth__facebook">
      Continue with Facebook
    </Button>
  );
}

/**
 * The providers read quietly: without an answer there are no social buttons, and email and password still work.
 */
const PROVIDERS_QUIETLY: CallOptions = { quiet: 'without an answer there are no social buttons; email and password still work' };

/** The social sign-in buttons, only for the providers the server has configured (none: nothing renders). */
export function SocialButtons() {
  const providers = useGetAuthProvidersQuery(PROVIDERS_QUIETLY).data;
  if (!providers?.google && !providers?.facebook) return null;
  return (
    <div className="kn-auth__social">
      <p className="kn-auth__or">
        <span>or</span>
      </p>
      {providers.google ? <GoogleButton clientId={providers.google.clientId} /> : null}
      {providers.facebook ? <FacebookButton appId={providers.facebook.appId} /> : null}
    </div>
  );
}
