/**
 * Leaves the app for another site's page with a full page load (a payment provider's checkout, Instagram's consent
 * page): those pages are not ours, so the router cannot show them. One object, so a test can catch the departure.
 */
export const leavePage = {
  go(url: string): void {
    window.location.assign(url);
  },
};
