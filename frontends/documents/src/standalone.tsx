import '@portico/kit/styles.css';
import { KitProvider, Text } from '@portico/kit';
import { createRoot } from 'react-dom/client';

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <KitProvider>
      <Text p="xl">This remote is loaded by the Portico shell (port 8080).</Text>
    </KitProvider>,
  );
}
