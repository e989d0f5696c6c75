/** features/discount-codes: the admins' discount codes page (`/admin/discount-codes`, a section of the admin area): create codes, see their use. */
export const loadDiscountCodesPage = () => import('./pages/DiscountCodesPage');
