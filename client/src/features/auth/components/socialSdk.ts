/**
 * Google Identity Services and the Facebook SDK, loaded only when the server has the provider configured
 * (GET auth/providers) and a login or signup modal shows its button.
 */
interface GoogleId {
  initialize(options: { client_id: string; callback: (response: { credential?: string }) => void; ux_mode?: 'popup'; auto_select?: boolean }): void;
  renderButton(parent: HTMLElement, options: Record<string, unknown>): void;
}

interface FacebookSdk {
  init(options: { appId: string; cookie?: boolean; xfbml?: boolean; version: string }): void;
  login(callback: (response: { authResponse?: { accessToken: string; userID: string } | null; status?: string }) => void, options?: { scope: string }): void;
}

declare global {
  interface Window {
    google?: { accounts: { id: GoogleId } };
    FB?: FacebookSdk;
  }
}

const scripts = new Map<string, Promise<void>>();

export function loadScript(src: string): Promise<void> {
  let pending = scripts.get(src);
  if (!pending) {
    pending = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = src;
      script.async = true;
      script.defer = true;
      script.onload = () => resolve();
      script.onerror = () => {
        scripts.delete(src);
        script.remove();
        reject(new Error(`could not load ${src}`));
      };
      document.head.appendChild(script);
    });
    scripts.set(src, pending);
  }
  return pending;
}

export async function loadGoogle(): Promise<GoogleId> {
  await loadScript('https://accounts.google.com/gsi/client');
  const id = window.google?.accounts.id;
  if (!id) throw new Error('Google Identity Services did not start');
  return id;
}

let facebookAppId: string | null = null;

export async function loadFacebook(appId: string): Promise<FacebookSdk> {
  await loadScript('https://connect.facebook.net/en_US/sdk.js');
  const fb = window.FB;
  if (!fb) throw new Error('the Facebook SDK did not start');
  if (facebookAppId !== appId) {
    fb.init({ appId, cookie: false, xfbml: false, version: 'v19.0' });
    facebookAppId = appId;
  }
  return fb;
}
