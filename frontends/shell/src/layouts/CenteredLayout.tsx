import { Container } from '@portico/kit';
import { Outlet } from 'react-router';

/** Centered pages: no left navigation (spec 1 s.2.2). */
export function CenteredLayout() {
  return (
    <Container component="main" size="sm" py="xl">
      <Outlet />
    </Container>
  );
}
