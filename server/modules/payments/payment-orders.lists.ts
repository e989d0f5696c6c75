/**
 * Each member's card orders listed by id (lib/member-lists.ts) in `payment_order_lists`, so that `tag/sell`, called
 * on the way back from a checkout, finds the member's recent pending orders by `_id`. An order is noted on its
 * member's list before it is inserted.
 */
import type { Types } from 'mongoose';
import { memberListModel, memberLists } from '../../lib/member-lists';
import { readEachById } from '../../lib/query';
import { PaymentOrderModel, type PaymentOrderDoc } from './payments.model';

export const PaymentOrderListModel = memberListModel('PaymentOrderList', 'payment_order_lists');

type OrderFacts = Pick<PaymentOrderDoc, '_id' | 'userId' | 'createdAt'>;

/** Every order, the oldest first, with its member. */
async function* everyOrder() {
  const orders = PaymentOrderModel.find({}, { userId: 1, createdAt: 1 }).sort({ createdAt: 1, _id: 1 }).lean<OrderFacts>();
  for await (const order of orders.cursor({ batchSize: 1_000 }) as AsyncIterable<OrderFacts>)
    yield { id: order._id, keys: [String(order.userId)], at: order.createdAt };
}

const lists = memberLists(PaymentOrderListModel, {
  name: 'payment-order-lists',
  describe: "Members' card orders: a list of ids per member (tag/sell reads their recent ones), rebuilt from the orders.",
  facts: everyOrder,
});

/** Notes an order on its member's list: call it before inserting the order. */
export const noteOrderOf = (userId: string, orderId: string, at?: Date) => lists.note(userId, [orderId], at);

/** The member's orders made since `since` (newest first), by `_id` through their list. */
export async function recentOrdersOf(userId: Types.ObjectId | string, since: Date): Promise<PaymentOrderDoc[]> {
  const orders = await readEachById<PaymentOrderDoc>(PaymentOrderModel, await lists.idsSince(String(userId), since));
  return orders.filter((order) => String(order.userId) === String(userId));
}

export const paymentOrderListsState = lists.state;
export const forgetPaymentOrderLists = lists.forget;
