/**
 * Component test setup (jsdom): the browser APIs antd needs that jsdom lacks, and a clean DOM and
 * storage between tests.
 */
import { TextDecoder, TextEncoder } from 'node:util';
import { cleanup } from '@testing-library/react';

// react-router needs TextEncoder, which jest's jsdom environment does not expose.
if (typeof globalThis.TextEncoder === 'undefined') {
  Object.assign(globalThis, { TextEncoder, TextDecoder });
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

// jsdom implements neither scrolling nor computed styles of pseudo-elements (antd asks for both).
window.scrollTo = (() => undefined) as typeof window.scrollTo;
const computedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = ((element: Element) => computedStyle(element)) as typeof window.getComputedStyle;

afterEach(() => {
  cleanup();
  window.sessionStorage.clear();
  window.localStorage.clear();
  window.history.replaceState(null, '', '/');
});
