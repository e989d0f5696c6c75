/**
 * Reloads the page (500 ms after an artist-page save, whether it worked or not). An object, so tests can
 * replace `run`.
 */
export const pageReload = {
  run(): void {
    window.location.reload();
  },
};
