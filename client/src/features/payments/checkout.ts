import { leavePage } from '../../lib/leavePage';

/** Leaves for the payment provider's checkout page (a full page load: the provider's page is not ours). */
export const checkout = leavePage;

export const goToCheckout = (url: string) => checkout.go(url);
