import { frontendConfig } from '@portico/kit/build';

export default frontendConfig({ dir: import.meta.dirname, name: 'shell', kind: 'host', port: 8080 });
