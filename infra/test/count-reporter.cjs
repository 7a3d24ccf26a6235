// Appends the machine-readable totals of a jest run to the file named by TEST_COUNTS_FILE, so the
// test command can print one closing `tests: N passed, N failed` line over every suite it runs.
const { appendFileSync } = require('node:fs');

class CountReporter {
  onRunComplete(_contexts, results) {
    const file = process.env.TEST_COUNTS_FILE;
    if (!file) return;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    appendFileSync(file, `${results.numPassedTests} ${failed} ${results.numPendingTests}\n`);
  }
}
module.exports = CountReporter;
