import { notify } from './notify';

/**
 * Copies `text` to the clipboard and says so: '{label} copied.' (or 'URL copied.' without a
 * label); on failure 'Failed to copy text: {reason}'. Resolves to whether it was copied.
 */
export async function copyText(text: string, label?: string): Promise<boolean> {
  try {
    if (!navigator.clipboard?.writeText) throw new Error('the clipboard is not available');
    await navigator.clipboard.writeText(text);
    notify('success', label ? `${label} copied.` : 'URL copied.');
    return true;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    notify('error', `Failed to copy text: ${reason}`);
    return false;
  }
}
