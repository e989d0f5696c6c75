import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { preloadRoute } from './app/routes';
import { createAppStore } from './app/store';
import './styles/global.css';

// Start the current route's chunk now, in parallel with the first render (index.html also preloads home).
preloadRoute(window.location.pathname);

const container = document.getElementById('root');
if (!container) throw new Error('Knack: #root is missing from index.html');

createRoot(container).render(<App store={createAppStore()} />);
