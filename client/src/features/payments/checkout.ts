/** Leaves for the payment provider's checkout page (a full page load: the provider's page is not ours). */
export const checkout = {
  go(url: string): void {
    window.location.assign(url);
  },
};

export const goToCheckout = (url: string) => checkout.go(url);
