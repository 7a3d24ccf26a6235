// The runtime configuration is requested at once; the async boundary lets module federation agree on
// the shared singletons before any of them runs.
import './config/pending.js';

import('./bootstrap.js');
