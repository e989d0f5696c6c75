import type { ThemeConfig } from 'antd/es/config-provider/context';
import { BRAND } from '../../lib/constants';

/** The page's muted and subtle text (global.css --kn-muted and --kn-subtle). */
const TEXT_MUTED = '#5d5a6e';
const TEXT_SUBTLE = '#6b687d';

export const FONT_STACK =
  'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif, "Apple Color Emoji", "Segoe UI Emoji"';

/**
 * The antd theme of Knack: violet brand, soft corners, ink text. antd's own greys and red are lighter than WCAG
 * AA allows for small text (a placeholder at 1.8:1, a danger button at 3.3:1), so every colour that carries text
 * is set here to one that reads at 4.5:1 or more on white and on the filled inputs' grey.
 */
export const theme: ThemeConfig = {
  token: {
    colorPrimary: BRAND.primary,
    // antd lightens the brand on hover (#8566ff: white text on it, or it as text on white, reads 3.9:1); it darkens
    // here instead, as our own buttons do (global.css --kn-brand-strong and --kn-brand-pressed).
    colorPrimaryHover: '#4526d9',
    colorPrimaryActive: '#3a1fc0',
    colorLink: BRAND.primary,
    colorLinkHover: '#4526d9',
    colorLinkActive: '#3a1fc0',
    colorText: BRAND.ink,
    colorTextHeading: BRAND.ink,
    colorTextSecondary: TEXT_MUTED,
    colorTextDescription: TEXT_MUTED,
    colorTextTertiary: TEXT_MUTED,
    colorTextPlaceholder: TEXT_SUBTLE,
    colorError: '#c92d30',
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
