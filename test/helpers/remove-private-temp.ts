// Set-up file for every test file: tools give the model's overflow files a private folder under TMPDIR
// that the product removes at process exit (src/tools/private-temp.ts). A test worker outlives the file
// (or ends without an "exit" event), so the folder is removed when each file's tests are done.
import { afterAll } from "vitest";
import { removePrivateTempDir } from "../../src/tools/private-temp.js";

afterAll(() => removePrivateTempDir());
