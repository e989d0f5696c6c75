import type { components } from '../../api/generated/openapi';

type Schemas = components['schemas'];

export type Content = Schemas['Content'];
export type UserCard = Schemas['UserCard'];
export type TitleSuggestion = Schemas['TitleSuggestion'];
/** A ranked feed of GET /content/get-by-kind/{kind}. */
export type FeedKind = Schemas['FeedKind'];
