/** features/discount-codes: the admins' discount codes page (`/creat-discount-code`): create codes, see their use. */
export const loadDiscountCodesPage = () => import('./pages/DiscountCodesPage');
