// `@` completion in the App over a real folder: keys are echoed at once while the project's paths are
// still being listed in the background, and the matches appear when the listing lands, without a key.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { render } from "ink-testing-library";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { App } from "../../../src/tui/app/App.js";
import { openInputHistory } from "../../../src/tui/input/input-history.js";
import { FakeSession } from "./fake-session.js";
import { unmountLater } from "./mount-app.js";

describe("@ file completion", () => {
	let dir = "";
	beforeEach(async () => {
		dir = await mkdtemp(join(tmpdir(), "rudder-at-"));
		await mkdir(join(dir, "deep", "nested", "folder"), { recursive: true });
		await writeFile(join(dir, "deep", "nested", "folder", "TargetWidget.tsx"), "");
		await writeFile(join(dir, "README.md"), "");
	});
	afterEach(async () => {
		await rm(dir, { recursive: true, force: true });
	});

	it("echoes the typed key while the index is still listing, then offers the deep file when the listing lands", async () => {
		const session = new FakeSession();
		session.setState({ cwd: dir });
		const app = render(<App session={session} onExit={() => {}} history={openInputHistory(null)} size={{ rows: 30, columns: 100 }} />);
		unmountLater(app);
		await new Promise((r) => setTimeout(r, 0));
		// The first `@` query starts the listing (a child process) in the render that shows the key: the
		// first frame with the key cannot hold the listing's result.
		app.stdin.write("@tgtwid");
		while (!app.frames.some((f) => f.includes("@tgtwid"))) await new Promise((r) => setImmediate(r));
		const echoed = app.frames.find((f) => f.includes("@tgtwid")) ?? "";
		expect(echoed).not.toContain("TargetWidget.tsx");
		await vi.waitFor(() => expect(app.lastFrame()).toContain("deep/nested/folder/TargetWidget.tsx"), { timeout: 10_000 });
	});
});
