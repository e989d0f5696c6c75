/** features/flags: the flag modal, where a member flags a piece with one of four reasons (or takes the flag back). */

/** The flag modal (a lazy chunk). */
export const loadFlagModal = () => import('./components/FlagModal');
