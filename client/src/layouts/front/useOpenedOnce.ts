import { useEffect, useState } from 'react';

/**
 * True from the first time `open` is true: a lazily loaded overlay is fetched when first needed, then kept
 * mounted (so closing animates, and the next opening is instant).
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  useEffect(() => {
    if (open) setOpened(true);
  }, [open]);
  return opened || open;
}
