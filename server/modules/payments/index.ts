/** Payments: listing fees (credits, discount codes, card checkouts through the payment provider) and webhooks. */
export { paymentsRouter, paymentsWebhookRouter, WEBHOOK_PATH } from './payments.routes';
export { createPaymentsService, PAYMENT_MESSAGES, type PaymentsService } from './payments.service';
export { CARD_MINIMUM_MICROS, LISTING_FEES, PREMIUM_KNACK_MICROS, PLATFORM_FEES, listingKey, relistingKey, tierOf, waivableFee, type Tier } from './listing';
export { DiscountCodeModel, DiscountUseModel, PaymentEventModel, PaymentOrderModel, type OrderStatus, type PaymentOrderDoc } from './payments.model';
export { listingMarksState } from './listing-marks';
export { forgetPaymentOrderLists, paymentOrderListsState } from './payment-orders.lists';
