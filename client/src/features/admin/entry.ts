/** features/admin for the lazy chunks only (the back layout): the sections of the admin area. */
export { ADMIN_SECTIONS, adminSectionOf, adminSectionPath, type AdminSection } from './admin.sections';
