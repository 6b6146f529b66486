import { TitledPage } from '../components/titled-page';
import { AccountScreen } from '../features/account/account-screen';

/** /account (signed-in users only): plan, usage, purchases, help and logout. */
export function AccountPage() {
  return (
    <TitledPage title="Account" heading={false}>
      <AccountScreen />
    </TitledPage>
  );
}
