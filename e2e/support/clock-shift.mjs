// Loaded into a test server's processes with `--import` (startServer's `clockFile`): the server's clock (Date.now)
// runs ahead of the real one by the milliseconds written in E2E_CLOCK_FILE, read again whenever the file is replaced,
// so that a browser test can move the server into the next study day.
import { readFileSync, watch } from 'node:fs';
import path from 'node:path';

const file = process.env.E2E_CLOCK_FILE;
if (file) {
  let offset = 0;
  const read = () => {
    try {
      const value = Number(readFileSync(file, 'utf8').trim());
      if (Number.isFinite(value)) offset = value;
    } catch {
      // Replaced at this moment: the next event reads it.
    }
  };
  read();
  // The directory, not the file: the test replaces the file (write, then rename), which a watch on it would miss.
  watch(path.dirname(file), { persistent: false }, read);
  const realNow = Date.now;
  Date.now = () => realNow() + offset;
}
