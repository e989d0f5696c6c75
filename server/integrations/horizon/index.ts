/** Stellar's network through Horizon: the driver interface, its errors, and the one driver (any Horizon, by HORIZON_URL). */
export * from './horizon.types';
export { createHorizon, loadStellarSdk, FALLBACK_BASE_FEE, RATE_FAILURE_MS, RATE_SHOWN_MS, RATE_TTL_MS, type HorizonOptions } from './horizon.driver';
