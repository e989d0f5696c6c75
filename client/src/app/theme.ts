import type { ThemeConfig } from 'antd/es/config-provider/context';
import { BRAND } from './constants';

export const FONT_STACK =
  'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif, "Apple Color Emoji", "Segoe UI Emoji"';

/** The antd theme of Knack: violet brand, soft corners, ink text. */
export const theme: ThemeConfig = {
  token: {
    colorPrimary: BRAND.primary,
    colorLink: BRAND.primary,
    colorText: BRAND.ink,
    colorTextHeading: BRAND.ink,
    colorBgLayout: '#f7f6fb',
    colorBorderSecondary: '#ecebf3',
    borderRadius: 10,
    fontFamily: FONT_STACK,
    fontSize: 15,
    controlHeight: 38,
  },
  components: {
    Button: { fontWeight: 600, primaryShadow: '0 6px 16px -6px rgba(91, 60, 245, 0.55)' },
    Drawer: { paddingLG: 16 },
  },
};
