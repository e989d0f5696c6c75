/** The client's dollar figures (2 decimals when shown), cut to the cent as the server pays. */
import { formatUsd } from '../../client/src/features/payments/money';

describe('formatUsd', () => {
  it('when a figure has more than 2 decimals, then it is cut to the cent, whatever float noise the number carries', () => {
    expect([0.045, 0.135, 0.941, 0.099, 9.999, 12.345, 1.005].map(formatUsd)).toEqual(['$0.04', '$0.13', '$0.94', '$0.09', '$9.99', '$12.34', '$1.00']);
  });

  it('when a figure is whole, negative or zero, then it shows 2 decimals and a sign only when a cent is left', () => {
    expect([0, 10, 12.4, 1234.5, -20, -0.004].map(formatUsd)).toEqual(['$0.00', '$10.00', '$12.40', '$1234.50', '-$20.00', '$0.00']);
  });
});
