/** Look-ups the sign-up form makes while the person types (not state changes, so no saga). */
import { getUserByUsername } from '../../api/generated/operations';
import { normalizeUsername } from './auth.rules';

/**
 * True when an account has the (normalized) username. 404 means free; any other failure counts as free
 * here, and the server checks again on submit.
 */
export async function isUsernameTaken(username: string): Promise<boolean> {
  try {
    const result = await getUserByUsername({ path: { username: normalizeUsername(username) } }, { quiet: true });
    return result.exists;
  } catch {
    return false;
  }
}
