/** The client's dollar figures (2 decimals when shown), cut to the cent as the server pays. */
import { formatUsd } from '../../client/src/components/format';
import { formatKnackPrice } from '../../client/src/lib/formatKnackPrice';

describe('formatUsd', () => {
  it('when a figure has more than 2 decimals, then it is cut to the cent, whatever float noise the number carries', () => {
    expect([0.045, 0.135, 0.941, 0.099, 9.999, 12.345, 1.005].map((usd) => formatUsd(usd))).toEqual([
      '$0.04',
      '$0.13',
      '$0.94',
      '$0.09',
      '$9.99',
      '$12.34',
      '$1.00',
    ]);
  });

  it('when a figure is whole, negative or zero, then it shows 2 decimals and a sign only when a cent is left', () => {
    expect([0, 10, 12.4, 1234.5, -20, -0.004].map((usd) => formatUsd(usd))).toEqual(['$0.00', '$10.00', '$12.40', '$1234.50', '-$20.00', '$0.00']);
  });

  it('when a rate under a cent is shown with 4 decimals, then it is cut, not rounded, at the fourth', () => {
    expect([0.001, 0.0032, 0.008, 0.00329, 0.05].map((usd) => formatUsd(usd, 4))).toEqual(['$0.0010', '$0.0032', '$0.0080', '$0.0032', '$0.0500']);
  });
});

describe('formatKnackPrice', () => {
  it('when a knack price has more than 2 decimals, then it is cut to the cent like every other figure', () => {
    expect([0.05, 0.29, 0.295, 0.999, 12.4].map(formatKnackPrice)).toEqual(['$0.05', '$0.29', '$0.29', '$0.99', '$12.40']);
  });

  it('when a knack price is missing or invalid, then the default price is shown', () => {
    expect([null, undefined, Number.NaN, -1].map(formatKnackPrice)).toEqual(['$0.05', '$0.05', '$0.05', '$0.05']);
  });
});
