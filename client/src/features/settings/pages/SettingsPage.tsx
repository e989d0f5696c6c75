import SettingOutlined from '@ant-design/icons/es/icons/SettingOutlined';
import { ApiKeys } from '../components/ApiKeys';
import { PasswordForm } from '../components/PasswordForm';
import { PayoutSettings } from '../components/PayoutSettings';
import { PersonalForm } from '../components/PersonalForm';
import { RegionalForm } from '../components/RegionalForm';
import { SocialForm } from '../components/SocialForm';
import { StellarWalletSettings } from '../components/StellarWalletSettings';
import { YourData } from '../components/YourData';
import '../components/settings.css';
import { PageHead } from '../../../components/PageHead';

/**
 * `/user-setting`: the member's settings, each group saved on its own: where they are from, about them, social profiles, the password, the
 * payout account and the linked Stellar wallet; the API keys of the member's own programs; then the member's data, to download or
 * delete with the account.
 */
export default function SettingsPage() {
  return (
    <div className="kn-settings">
      <PageHead icon={<SettingOutlined aria-hidden />} title="Settings" sub="Each group is saved on its own." />
      <section className="kn-settings__group">
        <RegionalForm />
      </section>
      <section className="kn-settings__group">
        <PersonalForm />
      </section>
      <section className="kn-settings__group">
        <SocialForm />
      </section>
      <section className="kn-settings__group">
        <PasswordForm />
      </section>
      <PayoutSettings />
      <StellarWalletSettings />
      <ApiKeys />
      <YourData />
    </div>
  );
}
