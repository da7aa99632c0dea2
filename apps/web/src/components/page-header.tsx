/** The standard navigation bar: back (by one step) and the screen's title. */
import { NavBar } from 'antd-mobile';
import { navigateBack } from '../lib/navigation';

export function PageHeader({ title, right }: { title: string; right?: React.ReactNode }) {
  return (
    <NavBar onBack={() => navigateBack(1)} right={right}>
      <h1 className="nav-title">{title}</h1>
    </NavBar>
  );
}
