/** For tests only: the members' lists of their card orders. */
export { PaymentOrderListModel } from './payment-orders.lists';
