import { startBenchChild } from './bench-child';
import { signAccessToken } from '../server/lib/access-token';
import { UserModel } from '../server/modules/users';
(async () => {
  const child = await startBenchChild('floor');
  const u = await UserModel.create({ email: 'a@b.example', username: 'a_b', fullName: 'A B', isActive: true });
  const url = await child.startApp();
  setTimeout(() => process.exit(0), Number(process.env.LIFE ?? 25) * 1000);
  console.log(url, signAccessToken(child.config.auth, { userId: String(u._id), tokenVersion: 0 }), String(u._id));
})();
