/** What a new knack says, and the verification modal's words. */
export const KNACK_THANKS = 'Thank you for being apart of our Community.';

export const VERIFICATION_MESSAGES = {
  invalidCode: 'Invalid verification code.',
  intro: 'You have knacked a lot today. To go on, enter the 4-digit code we email you.',
} as const;
