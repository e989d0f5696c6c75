import { microsToUsd } from '../../lib/money';
import type { OrderStatus, PaymentOrderDoc } from './payments.model';

interface OrderMessages {
  paid: string;
  failed: string;
  pending: string;
  superseded: string;
}

/** An order as its payer sees it; `message` is what the client shows ('Paid successfully', 'Payment Failed'). */
export function toOrderDto(order: PaymentOrderDoc, messages: OrderMessages) {
  const message: Record<OrderStatus, string> = messages;
  return {
    orderId: order._id,
    contentId: String(order.contentId),
    status: order.status,
    amount: microsToUsd(order.amountMicros),
    amountMicros: order.amountMicros,
    message: message[order.status],
  };
}
