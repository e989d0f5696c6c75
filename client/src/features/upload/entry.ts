/**
 * features/upload, the parts other features' lazy pages reuse, apart from the index (which the store loads on every
 * page): a piece's details in a form (picture, title, description, tags, song), as the upload modals ask for them.
 * NFT mode's first step is this form.
 */
export { ContentFields, clearSubTagOnNewMainTag, useDefaultMainTag } from './components/ContentFields';
export type { ContentFieldsProps } from './components/ContentFields';
