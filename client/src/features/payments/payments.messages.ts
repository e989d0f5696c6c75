/** What the payment screens say, the discount code's messages included. */
export const PAYMENT_MESSAGES = {
  paid: 'Paid successfully',
  failed: 'Payment Failed',
  emptyCode: 'Discount code should not be empty',
  stillProcessing: 'Your payment is still being confirmed. Its result will show in your wallet history.',
} as const;
