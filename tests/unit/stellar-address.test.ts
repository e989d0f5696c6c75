import { Keypair, StrKey } from '@stellar/stellar-sdk';
import { isStellarAccountId, isStellarSecretSeed } from '../../server/lib/stellar-address';

describe('isStellarAccountId', () => {
  it("when given accounts' public keys, then it agrees with the Stellar SDK on each, and on each with one character changed", () => {
    for (let i = 0; i < 50; i++) {
      const address = Keypair.random().publicKey();
      expect(isStellarAccountId(address)).toBe(true);
      const position = i % address.length;
      const other = address[position] === 'B' ? 'C' : 'B';
      const typo = address.slice(0, position) + other + address.slice(position + 1);
      expect(isStellarAccountId(typo)).toBe(StrKey.isValidEd25519PublicKey(typo));
      expect(isStellarAccountId(typo)).toBe(false);
    }
  });

  it('when given anything else, then it says no: secret seeds, muxed and contract addresses, lower case, other lengths', () => {
    const keypair = Keypair.random();
    const notAccounts = [
      keypair.secret(),
      StrKey.encodeMed25519PublicKey(Buffer.concat([keypair.rawPublicKey(), Buffer.alloc(8)])),
      StrKey.encodeContract(Buffer.alloc(32, 7)),
      keypair.publicKey().toLowerCase(),
      keypair.publicKey().slice(0, 55),
      `${keypair.publicKey()}A`,
      '',
      'GABC',
    ];
    for (const value of notAccounts) {
      expect(isStellarAccountId(value)).toBe(false);
      expect(StrKey.isValidEd25519PublicKey(value)).toBe(false);
    }
  });
});

describe('isStellarSecretSeed', () => {
  it('when given secret seeds, then it agrees with the Stellar SDK, and refuses addresses and seeds with one character changed', () => {
    for (let i = 0; i < 50; i++) {
      const keypair = Keypair.random();
      const seed = keypair.secret();
      expect(isStellarSecretSeed(seed)).toBe(true);
      expect(isStellarSecretSeed(keypair.publicKey())).toBe(false);
      const position = 1 + (i % (seed.length - 1));
      const typo = seed.slice(0, position) + (seed[position] === 'B' ? 'C' : 'B') + seed.slice(position + 1);
      expect(isStellarSecretSeed(typo)).toBe(StrKey.isValidEd25519SecretSeed(typo));
      expect(isStellarSecretSeed(typo)).toBe(false);
    }
  });
});
