/** Listing fees and payments on the client: the payment modal (dollar, price, paid) and the checkout return. */
export { PAYMENT_MESSAGES } from './payments.messages';
export { goToCheckout } from './checkout';
export { OrderReturn } from './components/OrderReturn';
export { MonetizeButton } from './components/MonetizeButton';

/** The payment modal's chunk (payment and payment success). */
export const loadPaymentModal = () => import('./components/PaymentModal');
