/**
 * Component test setup (jsdom): the browser APIs antd needs that jsdom lacks, and a clean DOM and
 * storage between tests.
 */
import { webcrypto } from 'node:crypto';
import { TextDecoder, TextEncoder } from 'node:util';
import { cleanup, configure } from '@testing-library/react';

// A `findBy…` or `waitFor` waits for the state it names; on a machine busy with the other test files that can
// take longer than Testing Library's default second, and it costs nothing when the state comes sooner.
configure({ asyncUtilTimeout: 10_000 });

// react-router needs TextEncoder, which jest's jsdom environment does not expose.
if (typeof globalThis.TextEncoder === 'undefined') {
  Object.assign(globalThis, { TextEncoder, TextDecoder });
}

// Web Crypto's digest (the proof verifier hashes with it), which jsdom's crypto lacks.
if (!globalThis.crypto?.subtle) {
  Object.defineProperty(globalThis, 'crypto', { writable: true, configurable: true, value: webcrypto });
}

// antd's Form batches watchers in a macro task through MessageChannel, which jsdom lacks.
if (typeof globalThis.MessageChannel === 'undefined') {
  class MessagePortStub {
    onmessage: ((event: { data: unknown }) => void) | null = null;
    partner: MessagePortStub | null = null;
    postMessage(data: unknown) {
      const target = this.partner;
      setTimeout(() => target?.onmessage?.({ data }), 0);
    }
    close() {}
  }
  class MessageChannelStub {
    port1 = new MessagePortStub();
    port2 = new MessagePortStub();
    constructor() {
      this.port1.partner = this.port2;
      this.port2.partner = this.port1;
    }
  }
  Object.defineProperty(globalThis, 'MessageChannel', { writable: true, configurable: true, value: MessageChannelStub });
}

if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    configurable: true,
    value: (query: string): MediaQueryList => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}

if (!('ResizeObserver' in window)) {
  class ResizeObserverStub {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  Object.defineProperty(window, 'ResizeObserver', { writable: true, configurable: true, value: ResizeObserverStub });
  Object.defineProperty(globalThis, 'ResizeObserver', { writable: true, configurable: true, value: ResizeObserverStub });
}

// jsdom has no 2D canvas (it reports "not implemented" for each ask): the charts and the waveform draw nothing
// without one, as in a browser without canvas, and their figures are tested through their table views.
HTMLCanvasElement.prototype.getContext = (() => null) as typeof HTMLCanvasElement.prototype.getContext;

// jsdom implements neither scrolling nor computed styles of pseudo-elements (antd asks for both).
window.scrollTo = (() => undefined) as typeof window.scrollTo;
const computedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = ((element: Element) => computedStyle(element)) as typeof window.getComputedStyle;

// antd's style rules are not injected in these tests (render.tsx, CollectedStyles), but the classes antd hides
// closed popups and inactive panes with still hide them, so a closed menu's items stay out of role queries.
const hidingClasses = document.createElement('style');
hidingClasses.textContent = [
  'ant-select-dropdown',
  'ant-dropdown',
  'ant-popover',
  'ant-tooltip',
  'ant-picker-dropdown',
  'ant-cascader-dropdown',
  'ant-tabs-tabpane',
  'ant-form-item',
  'ant-menu',
  'ant-menu-submenu',
  'ant-modal-mask',
]
  .map((block) => `.${block}-hidden`)
  .join(', ')
  .concat(' { display: none; }');
document.head.appendChild(hidingClasses);

afterEach(() => {
  cleanup();
  window.sessionStorage.clear();
  window.localStorage.clear();
  window.history.replaceState(null, '', '/');
});
