/**
 * The signed tokens of links that act without a session (a sale's inbox links, a mail's unsubscribe link): they name
 * their values, and only a token the key signed for that purpose and those values is read back.
 */
import { readSignedToken, signedToken } from '../../server/lib/signed-token';

const KEY = 'a-key-of-its-own-for-this-use-0123456789';

describe('signed tokens', () => {
  it('when a token is read back with its key and purpose, then it names the values it was made for', () => {
    const token = signedToken(KEY, 'mail-unsubscribe', ['digest', '64b7f0c2a1b2c3d4e5f60718']);
    expect(token).toMatch(/^digest\.64b7f0c2a1b2c3d4e5f60718\.[A-Za-z0-9_-]{43}$/);
    expect(readSignedToken(KEY, 'mail-unsubscribe', token, 2)).toEqual(['digest', '64b7f0c2a1b2c3d4e5f60718']);
  });

  it('when a value, the signature, the purpose or the key differ, then the token is refused', () => {
    const token = signedToken(KEY, 'mail-unsubscribe', ['digest', '64b7f0c2a1b2c3d4e5f60718']);
    const [, , signature] = token.split('.');
    expect(readSignedToken(KEY, 'mail-unsubscribe', `statement.64b7f0c2a1b2c3d4e5f60718.${signature}`, 2)).toBeNull();
    expect(readSignedToken(KEY, 'mail-unsubscribe', `digest.64b7f0c2a1b2c3d4e5f60719.${signature}`, 2)).toBeNull();
    expect(readSignedToken(KEY, 'mail-unsubscribe', `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`, 2)).toBeNull();
    expect(readSignedToken(KEY, 'bid-link', token, 2)).toBeNull();
    expect(readSignedToken(`${KEY}!`, 'mail-unsubscribe', token, 2)).toBeNull();
    expect(readSignedToken(KEY, 'mail-unsubscribe', `${token}.more`, 2)).toBeNull();
    expect(readSignedToken(KEY, 'mail-unsubscribe', 'digest..x', 2)).toBeNull();
  });

  it('when the values are put in their signed form first, then a token written in other letter case is read', () => {
    const token = signedToken(KEY, 'bid-link', ['64b7f0c2a1b2c3d4e5f60718', '64b7f0c2a1b2c3d4e5f60719']);
    const shouted = token.replace(/^[0-9a-f]+\.[0-9a-f]+/, (ids) => ids.toUpperCase());
    expect(readSignedToken(KEY, 'bid-link', shouted, 2)).toBeNull();
    expect(readSignedToken(KEY, 'bid-link', shouted, 2, (id) => id.toLowerCase())).toEqual(['64b7f0c2a1b2c3d4e5f60718', '64b7f0c2a1b2c3d4e5f60719']);
  });

  it('when a value is empty or holds a dot, then no token is made', () => {
    expect(() => signedToken(KEY, 'mail-unsubscribe', ['digest', ''])).toThrow(RangeError);
    expect(() => signedToken(KEY, 'mail-unsubscribe', ['a.b', 'c'])).toThrow(RangeError);
  });
});
