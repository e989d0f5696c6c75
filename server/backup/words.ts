/** How the commands say counts and sizes. */
export const plural = (n: number, word: string, words = `${word}s`) => `${n} ${n === 1 ? word : words}`;

export const formatBytes = (bytes: number) =>
  bytes < 1024 ? `${bytes} B` : bytes < 1024 ** 2 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1024 ** 2).toFixed(1)} MiB`;

/** At most five items, and how many more there are. */
export function listed(items: string[]): string {
  const shown = items.slice(0, 5).join('; ');
  return items.length > 5 ? `${shown}; and ${items.length - 5} more` : shown;
}
