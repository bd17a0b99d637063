// A page an MCP server asks the user to open: only http(s), through $BROWSER without a shell, and the
// browser never gets a credential from Rudder's environment.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { openUrl } from "../../../src/extensions/mcp/open-url.js";

let dir: string | undefined;
afterEach(() => {
	if (dir) rmSync(dir, { recursive: true, force: true });
	dir = undefined;
});

function fakeBrowser(): { env: Record<string, string>; out: string } {
	dir = mkdtempSync(join(tmpdir(), "rudder-open-url-"));
	const out = join(dir, "seen.txt");
	const script = join(dir, "browser.sh");
	writeFileSync(script, `#!/bin/sh\n{ echo "url=$1"; env; } > '${out}.tmp' && mv '${out}.tmp' '${out}'\n`);
	chmodSync(script, 0o755);
	return { env: { PATH: process.env.PATH ?? "", BROWSER: script, RUDDER_TEST_SERVICE_TOKEN: "tok-browser-1" }, out };
}

describe("openUrl", () => {
	it("opens an https page through $BROWSER with the URL as one argument and no credential in its environment", async () => {
		const { env, out } = fakeBrowser();
		expect(await openUrl("https://example.test/a?b=c d", env)).toBe(true);
		await vi.waitFor(() => expect(existsSync(out)).toBe(true));
		const seen = readFileSync(out, "utf8");
		expect(seen).toContain("url=https://example.test/a?b=c d");
		expect(seen).not.toContain("tok-browser-1");
	});

	it("opens nothing that is not http(s)", async () => {
		const { env, out } = fakeBrowser();
		expect(await openUrl("file:///etc/passwd", env)).toBe(false);
		expect(await openUrl("javascript:alert(1)", env)).toBe(false);
		expect(existsSync(out)).toBe(false);
	});
});
