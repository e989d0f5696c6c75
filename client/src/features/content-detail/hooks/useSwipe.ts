import { useRef, type TouchEvent } from 'react';

/** A swipe counts past 20 px on phones, 40 px otherwise. */
export const SWIPE_THRESHOLD = { phone: 20, other: 40 } as const;

export interface SwipeHandlers {
  onTouchStart: (event: TouchEvent) => void;
  onTouchEnd: (event: TouchEvent) => void;
  onTouchCancel: () => void;
}

/**
 * Horizontal swipes: a finger moved left past `threshold` px calls `onNext`, right calls `onPrevious`. A
 * mostly vertical move (scrolling) is no swipe.
 */
export function useSwipe({ threshold, onPrevious, onNext }: { threshold: number; onPrevious: () => void; onNext: () => void }): SwipeHandlers {
  const start = useRef<{ x: number; y: number } | null>(null);
  return {
    onTouchStart(event) {
      const touch = event.touches[0];
      start.current = touch && event.touches.length === 1 ? { x: touch.clientX, y: touch.clientY } : null;
    },
    onTouchEnd(event) {
      const from = start.current;
      const touch = event.changedTouches[0];
      start.current = null;
      if (!from || !touch) return;
      const dx = touch.clientX - from.x;
      const dy = touch.clientY - from.y;
      if (Math.abs(dx) <= threshold || Math.abs(dx) <= Math.abs(dy)) return;
      if (dx < 0) onNext();
      else onPrevious();
    },
    onTouchCancel() {
      start.current = null;
    },
  };
}
