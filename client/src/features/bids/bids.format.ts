/** An XLM amount as the app shows it: 2 decimals and the unit ('12.50 XLM'). */
export const formatXlm = (price: number) => `${price.toFixed(2)} XLM`;
