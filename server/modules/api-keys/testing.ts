/**
 * What tests use of this module beyond its index.ts: the collections, to check what is stored. Production code never
 * imports this file (the linter refuses it): other modules use the index.
 */
export { ApiKeyModel, ApiKeySlotModel, type ApiKeyDoc } from './api-keys.model';
export { API_KEY_CREATE_LIMIT, keyIdOf, LAST_USED_EVERY_MS } from './api-keys.service';
