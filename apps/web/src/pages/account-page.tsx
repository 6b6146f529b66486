import { TitledPage } from '../components/titled-page';
import { AccountScreen } from '../features/account/account-screen';
import { usePaymentReturn } from '../features/billing/payment-return';
import { PlansSection } from '../features/billing/plans-section';
import { useAuth } from '../lib/auth-context';

/** /account (signed-in users only): plan, usage, purchases, help and logout. */
export function AccountPage() {
  const { user } = useAuth();
  const paymentNotice = usePaymentReturn(user);
  return (
    <TitledPage title="Account" heading={false}>
      <AccountScreen billing={{ paymentNotice, plans: (props) => <PlansSection {...props} /> }} />
    </TitledPage>
  );
}
