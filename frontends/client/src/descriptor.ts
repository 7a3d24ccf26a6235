import { defineDescriptor, specNav } from '@portico/kit';

/** What the client area adds to the shell: its routes and navigation items (STYLE 19). */
export default defineDescriptor({
  name: 'client',
  routes: [
    { path: '/profile', module: './Profile', layout: 'client', audience: 'client' },
    { path: '/preview/user', module: './PreviewUser', layout: 'advisor', audience: 'advisor' },
  ],
  nav: [specNav('client-profile')],
});
