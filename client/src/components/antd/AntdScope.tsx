import { useMemo, type ReactNode } from 'react';
import ConfigProvider from 'antd/es/config-provider';
import { usePrefersReducedMotion, withMotionPreference } from './reducedMotion';
import { theme } from './theme';

/** antd's provider with Knack's theme, its motion off for visitors who asked for less. */
export function AntdScope({ children }: { children: ReactNode }) {
  const reducedMotion = usePrefersReducedMotion();
  const appTheme = useMemo(() => withMotionPreference(theme, reducedMotion), [reducedMotion]);
  return <ConfigProvider theme={appTheme}>{children}</ConfigProvider>;
}
