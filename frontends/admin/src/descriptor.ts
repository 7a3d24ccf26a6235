import { defineDescriptor, specNav } from '@portico/kit';

/** What the admin area adds to the shell: its routes and navigation items (STYLE 19). */
export default defineDescriptor({
  name: 'admin',
  routes: [{ path: '/admin-profile', module: './ProfileSettings', layout: 'advisor', audience: 'advisor' }],
  nav: [specNav('profile-settings')],
});
