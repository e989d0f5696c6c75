import type { components } from '../../api/generated/openapi';

export type TitleSuggestion = components['schemas']['TitleSuggestion'];
