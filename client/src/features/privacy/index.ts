/**
 * features/privacy: the settings (Privacy) modal, where the owner of a piece chooses who sees it (public, followers or
 * private) and hides its play or view count. Choosing needs a plan above the first (admins always may).
 */

/** The Privacy modal (a lazy chunk). */
export const loadPrivacyModal = () => import('./components/PrivacyModal');
