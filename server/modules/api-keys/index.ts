/** API keys: members' keys for their own programs (made, listed, revoked in the settings), and the gate that lets them in. */
export { apiKeysRouter } from './api-keys.routes';
export { apiKeyGate, apiKeyLimit, confirmKeyCall } from './api-keys.gate';
export { API_KEY_MESSAGES, API_KEYS_MAX } from './api-keys.service';
export { removeApiKeysOf } from './api-keys.erasure';
