/** The member's money screens: the wallet (balances, payout account, earnings) and the activity history. */
export const loadWalletPage = () => import('./pages/WalletPage');
export const loadActivityHistoryPage = () => import('./pages/ActivityHistoryPage');
/** The payout account form (the PayPal email, changed with the current password), shown in the settings: a lazy chunk. */
export const loadPayoutAccountForm = () => import('./components/PayoutAccountForm').then((module) => ({ default: module.PayoutAccountForm }));
/** A member's history as a list (an admin reads any member's): a lazy chunk, for the admins' cash-outs page. */
export const loadMemberHistory = () => import('./components/MemberHistory').then((module) => ({ default: module.MemberHistory }));
