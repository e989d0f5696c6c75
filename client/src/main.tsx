/**
 * The SPA's entry. It boots the app in steps, each in a task of its own, so that a slow phone's main thread is
 * never held for long: a browser evaluates a script and everything it imports statically in one task, which here
 * took about 200 ms on a phone-speed CPU. Each dynamic import below evaluates only the modules it reaches first.
 * Every file these steps load is announced with <link rel="modulepreload"> in index.html (vite.config.ts), so the
 * steps wait on no download of their own.
 */
// antd's icon rules first, as the icons would insert them, so the app's own rules win (build/antdIconStyles.ts).
import 'virtual:antd-icon-styles.css';
import './styles/global.css';

// Lets the browser run other tasks (input, paint) before going on. Written here rather than imported from lib/: a
// module the entry shares with the app joins one of the app's shared chunks, and that chunk's imports (antd, here)
// would load before the first paint.
const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

async function boot(container: HTMLElement): Promise<void> {
  // React and the router.
  const [{ startTransition }, { createRoot }] = await Promise.all([import('react'), import('react-dom/client')]);
  await nextTask();
  // The HTTP client (used whole, so importing it on its own costs no bytes).
  await import('axios');
  await nextTask();
  // The app's own modules.
  const { App, createAppStoreInSteps, preloadRoute } = await import('./app/boot');
  // The current route's page starts downloading now (index.html preloads home's).
  preloadRoute(window.location.pathname);
  await nextTask();
  const { startSagas } = createAppStoreInSteps();
  await nextTask();
  const store = startSagas();
  await nextTask();
  // The first render as a transition: React renders it in slices and yields between them.
  const root = createRoot(container);
  startTransition(() => root.render(<App store={store} />));
}

const container = document.getElementById('root');
if (!container) throw new Error('Knack: #root is missing from index.html');
void boot(container);
