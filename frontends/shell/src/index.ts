// The runtime configuration is requested first, then the page starts. The shell is an ordinary bundle
// (no federation runtime to agree on shared modules first): React, the sign-in page and its part of the
// kit are in the entry; the signed-in shell, the areas and the federation runtime load on demand.
import './config/pending.js';
import './bootstrap.js';
