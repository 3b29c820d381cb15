// Prints one closing line for the whole suite, from the JSON reports of Vitest and Playwright.
import fs from 'node:fs';

const read = (file) => {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    console.error(`summary: ${file} is missing or unreadable`);
    process.exit(1);
  }
};
const unit = read('.test-reports/unit.json');
const e2e = read('.test-reports/e2e.json');
const passed = unit.numPassedTests + (e2e.stats.expected ?? 0);
const failed = unit.numFailedTests + (e2e.stats.unexpected ?? 0) + (e2e.stats.flaky ?? 0);
const skipped = unit.numPendingTests + unit.numTodoTests + (e2e.stats.skipped ?? 0);
console.log(`\nunit ${unit.numPassedTests} passed; end-to-end ${e2e.stats.expected} passed`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed || passed === 0 ? 1 : 0);
