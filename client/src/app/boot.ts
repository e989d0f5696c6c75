/**
 * What the SPA's entry (main.tsx) needs from the app, in one module: importing it evaluates the app's own modules
 * (every feature's state and sagas, the API client, the shell and its layout) as one step of the boot.
 */
export { App } from './App';
export { preloadRoute } from './routes';
export { createAppStoreInSteps } from './store';
