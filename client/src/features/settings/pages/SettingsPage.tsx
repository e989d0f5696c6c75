import SettingOutlined from '@ant-design/icons/es/icons/SettingOutlined';
import { Link } from 'react-router-dom';
import { PATHS } from '../../../app/constants';
import { PasswordForm } from '../components/PasswordForm';
import { PersonalForm } from '../components/PersonalForm';
import { RegionalForm } from '../components/RegionalForm';
import { SocialForm } from '../components/SocialForm';
import '../components/settings.css';

/**
 * `/user-setting`: the member's settings, each group saved on its own: where they are from, about them, social profiles, the password; the
 * payout account is on the wallet page for now.
 */
export default function SettingsPage() {
  return (
    <div className="kn-settings">
      <header className="kn-page-head">
        <h1 className="kn-page-title">
          <SettingOutlined aria-hidden /> Settings
        </h1>
        <p className="kn-page-sub">Each group is saved on its own.</p>
      </header>
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
      <section className="kn-settings__group" aria-labelledby="kn-settings-payment">
        <h2 id="kn-settings-payment" className="kn-settings__title">
          Payouts
        </h2>
        <p>
          The PayPal email your payouts and cash-outs go to is set on your <Link to={PATHS.wallet}>wallet</Link>.
        </p>
      </section>
    </div>
  );
}
