import { BREAKPOINTS } from '../constants';

export type Device = 'phone' | 'desktop';
export type Orientation = 'portrait' | 'landscape';

export interface Viewport {
  device: Device;
  orientation: Orientation;
  width: number;
  height: number;
}

const PHONE_USER_AGENT = /Android.+Mobile|iPhone|iPod|Windows Phone|IEMobile|BlackBerry|Opera Mini|webOS|Mobile Safari/i;

/** True when the user agent names a phone (tablets are not phones). The server's first paint has the same rule (server/lib/firstPaint.ts). */
export function isPhoneUserAgent(userAgent: string): boolean {
  return PHONE_USER_AGENT.test(userAgent) && !/iPad|Tablet/i.test(userAgent);
}

/**
 * Device from the user agent and the width: a phone user agent, or a viewport narrower than 600 px, is laid
 * out as a phone.
 */
export function detectDevice(userAgent: string, width: number): Device {
  return isPhoneUserAgent(userAgent) || width < BREAKPOINTS.phone ? 'phone' : 'desktop';
}

/** Orientation from height vs width. */
export function detectOrientation(width: number, height: number): Orientation {
  return height > width ? 'portrait' : 'landscape';
}

export function readViewport(win: Pick<Window, 'innerWidth' | 'innerHeight' | 'navigator'> | undefined = globalThis.window): Viewport {
  const width = win?.innerWidth ?? 1280;
  const height = win?.innerHeight ?? 800;
  return {
    device: detectDevice(win?.navigator?.userAgent ?? '', width),
    orientation: detectOrientation(width, height),
    width,
    height,
  };
}
