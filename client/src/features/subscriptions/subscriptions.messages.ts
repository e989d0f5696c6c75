/** What the subscription screens say, with the server's words where it has them. */
export const SUBSCRIPTION_MESSAGES = {
  approved: 'Subscription approved!',
  failed: 'Subscription payment failed',
  stillProcessing: 'Your payment is still being confirmed. Your plan appears here as soon as it is.',
  cancelled: 'Your plan will not renew. It stays until the end of the month you paid for.',
  resumed: 'Your plan renews every month again.',
} as const;

/**
 * What others pay an artist per stream, as commonly reported, beside Knack's knack: what one play or view
 * earns here, from $0.05.
 */
export const STREAM_RATES = [
  { platform: 'YouTube Music', perStream: 0.001 },
  { platform: 'Spotify', perStream: 0.0032 },
  { platform: 'Apple Music', perStream: 0.008 },
  { platform: 'Amazon Music', perStream: 0.0032 },
] as const;

export const KNACK_RATE_FROM = 0.05;
