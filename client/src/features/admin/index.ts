/**
 * features/admin: the admin area's sections (dashboard, pieces, plans; see admin.sections.tsx, loaded by the back
 * layout through entry.ts) and the admin's actions on a piece. Only loaders here: no admin code is in the chunks a
 * member downloads.
 */
export const loadAdminPieceMenu = () => import('./components/AdminPieceMenu');
