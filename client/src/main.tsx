import { startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { preloadRoute } from './app/routes';
import { createAppStore } from './app/store';
import './styles/global.css';

// Start the current route's chunk now, in parallel with the first render (index.html also preloads home).
preloadRoute(window.location.pathname);

const container = document.getElementById('root');
if (!container) throw new Error('Knack: #root is missing from index.html');

// The first render as a transition: React renders it in slices and yields between them, so a slow phone's main
// thread is never held for the whole page at once (a tap or a paint can come between two slices).
const root = createRoot(container);
const store = createAppStore();
startTransition(() => root.render(<App store={store} />));
