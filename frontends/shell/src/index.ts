// The async boundary lets module federation agree on the shared singletons before any of them runs.
import('./bootstrap.js');
