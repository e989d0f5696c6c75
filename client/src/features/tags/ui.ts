/**
 * features/tags, UI face: components for route pages. Kept apart from index.ts (state, selectors,
 * formatting) so the store, which imports index.ts, does not pull route UI and its styles into the
 * entry chunk.
 */
export { TagSections } from './components/TagSections';
export type { TagSectionsProps } from './components/TagSections';
export { TypeIcon } from './components/TypeIcon';
