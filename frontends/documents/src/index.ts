// Standalone page of the remote (its dev server); the shell loads the exposed modules instead.
import('./standalone.js');
