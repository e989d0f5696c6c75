/** Reloads the page (the artist-page upload, spec §4). An object, so tests can replace `run`. */
export const pageReload = {
  run(): void {
    window.location.reload();
  },
};
