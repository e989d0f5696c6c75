/**
 * features/projects: members group their own pieces into projects. The project modal (tabs 'Add to project' and
 * 'Create a project') opens from the detail modal's owner menu and the own profile; a profile's Projects tab lists a
 * member's projects, each opening as a playable list. Both are lazy chunks (they bring antd with them).
 */

/** The project modal (a lazy chunk). */
export const loadProjectModal = () => import('./components/ProjectModal');

/** A member's projects, as a profile's Projects tab shows them (a lazy chunk). */
export const loadProjectsPanel = () => import('./components/ProjectsPanel');
