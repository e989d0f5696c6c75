/** The member's money screens: the wallet (balances, payout account, earnings) and the activity history. */
export const loadWalletPage = () => import('./pages/WalletPage');
export const loadActivityHistoryPage = () => import('./pages/ActivityHistoryPage');
