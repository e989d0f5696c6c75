/** Hands `text` to the browser as a file to save, named `filename`, of media type `type`. */
export function saveFile(text: string, filename: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the file over; the object URL is no longer needed.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
