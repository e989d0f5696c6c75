/** features/settings: the member's settings page (`/user-setting`), group by group. */
export const loadSettingsPage = () => import('./pages/SettingsPage');
