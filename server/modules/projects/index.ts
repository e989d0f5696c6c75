/** Projects: members' groups of their own pieces, their lists and the ranking by reactions. */
export { projectsRouter } from './projects.routes';
export { createProjectsService, ownsProject, PROJECT_MESSAGES, type ProjectsService } from './projects.service';
export { ProjectModel, type ProjectDoc } from './projects.model';
export { projectsExportOf, removeProjectsOf } from './projects.erasure';
export { forgetProjectLists, MAX_PROJECTS_PER_MEMBER, projectListsState } from './projects.lists';
