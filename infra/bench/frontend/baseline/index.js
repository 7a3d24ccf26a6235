// The baseline: a bare React 19 page with one email input, nothing else.
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';

function Page() {
  return createElement(
    'form',
    null,
    createElement('label', { htmlFor: 'email' }, 'Email'),
    createElement('input', { id: 'email', type: 'email', autoComplete: 'username' }),
  );
}

createRoot(document.getElementById('root')).render(createElement(Page));
