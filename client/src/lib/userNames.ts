/** How a member's name shows. */

/** How a username is shown: underscores as spaces. */
export function displayUsername(username: string): string {
  return username.replace(/_/g, ' ');
}

/** Up to two letters for an avatar without a picture. */
export function initials(user: { firstName?: string; lastName?: string; username?: string }): string {
  const fromNames = `${user.firstName?.trim()[0] ?? ''}${user.lastName?.trim()[0] ?? ''}`;
  const letters = fromNames || (user.username ?? '').replace(/[^a-z0-9]/gi, '').slice(0, 2);
  return letters.toUpperCase() || '?';
}
