/**
 * features/wallet, the parts other features' lazy pages reuse, apart from the index (which the store loads on every
 * page): a member's history as a list, which the admins' cash-out page shows for the member of a request.
 */
export { MemberHistory } from './components/MemberHistory';
